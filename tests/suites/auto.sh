# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# the automatic path (sptrsv): a path per triangle; on the host backend the host rule (level) unless a model or the
# fallback rule is asked for, which runs the GPU choices (syncfree, locality, ... host executors) on the same factors
AUTO_H100="-mat_sptrsv_auto_model h100"
run_test ex2/auto-ilu0 with_solver sptrsv compare_case 1 ex2 "$EX2" ""
run_test ex2/auto-ilu1-h100 with_solver sptrsv compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$AUTO_H100"
run_test ex2/auto-icc0-none with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type icc -ksp_monitor" "-mat_sptrsv_auto_model none"
run_test ex2/auto-bicg-transpose-h100-solves100 with_solver sptrsv compare_case 1 ex2 "-m 40 -n 40 -ksp_type bicg -pc_type ilu -ksp_monitor" "$AUTO_H100 -mat_sptrsv_expected_solves 100"
run_test ex2/auto-bjacobi-np2 with_solver sptrsv compare_case 2 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -sub_pc_type ilu -ksp_monitor" "-sub_mat_sptrsv_auto_model h100" sub_
run_test ex2/auto-csc-h100 with_solver sptrsv compare_case 1 ex2 "$EX2" "-mat_sptrsv_format csc $AUTO_H100"
run_test ex2/auto-candidates-locality-element with_solver sptrsv compare_case 1 ex2 "$EX2 -pc_factor_levels 1" "$AUTO_H100 -mat_sptrsv_auto_candidates locality,element"
run_test ex2/options-file-ilu-auto with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "-options_file $ROOT/petscconf-snippets/ilu-auto.opts"
run_test ex45/auto-grid17-h100 with_solver sptrsv compare_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type ilu -ksp_monitor" "$AUTO_H100"
run_test ex19/auto-newton-ilu0-h100 with_solver sptrsv compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$AUTO_H100"
run_test matrices/auto-cryg2500-ilu1-h100 with_solver sptrsv mm_compare cryg2500 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -pc_factor_levels 1 -ksp_rtol 1e-8 $AUTO_H100"
run_test matrices/auto-olm1000-ilu0-h100 with_solver sptrsv mm_compare olm1000 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -ksp_rtol 1e-8 $AUTO_H100"
run_test matrices/auto-olm1000-ilu0-rule with_solver sptrsv mm_compare olm1000 "-ksp_type gmres -ksp_gmres_restart 100 -ksp_max_it 2000 -pc_type ilu -ksp_rtol 1e-8 -mat_sptrsv_auto_model none"

# its -ksp_view, -help and messages
AUTO="-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv -mat_sptrsv_backend host"
AUTO_SETUP="$AUTO -mat_sptrsv_auto_learn 0" # the choice at the setup (by predicted solve time), as before the learning default
run_test view/auto-ksp-view-host ours_grep ex2 "$AUTO_SETUP -ksp_view" "package used to perform factorization: sptrsv$" "path sptrsv \(automatic: L sptrsv_level, U sptrsv_level\), format csr" "automatic choice: level \(host rule: level on the host backend" "features: rows 900, nnz 1740, levels \(critical path\) 59, rows per level mean 15.3 max 30, row length mean 1.93 max 2 \(spread 1.0\)" "rule order: level, syncfree, element, locality" "schedule level: 59 levels"
run_test view/auto-ksp-view-h100 ours_grep ex2 "$AUTO $AUTO_H100 -mat_sptrsv_expected_solves 50 -ksp_view" "automatic choice: pinv fill4 \(smallest predicted setup \+ 50 solves \(model h100\)\)" "predicted: pinv fill4 [0-9.]+ ms \(setup [0-9.]+ \+ 50 x solve [0-9.]+\), level [0-9.]+ ms \(setup [0-9.]+ \+ 50 x solve [0-9.]+\), [a-z]+ [0-9.]+ ms" "features: .* expected solves 50"
run_test view/auto-ksp-view-h100-solve ours_grep ex2 "$AUTO_SETUP $AUTO_H100 -ksp_view" "automatic choice: [a-z]+( fill[0-9.]+)? \(smallest predicted solve time \(model h100\)\)" "predicted: [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms \(setup [0-9.e-]+\), [a-z]+( fill[0-9.]+)? [0-9.e-]+ ms"
run_test view/auto-fallback-refused ours_grep ex2 "$AUTO_SETUP -mat_sptrsv_auto_model none -mat_sptrsv_auto_candidates syncfree,level -mat_sptrsv_max_lanes 3 -ksp_view" "automatic choice: level \(fallback rule: sync-free; below 4 rows per level locality up to 29056 rows, level above\)" "rule order: syncfree \[refused\], level" "syncfree refused the triangle: -mat_sptrsv_max_lanes must be 1, 2, 4, 8, 16 or 32, got 3"
run_test view/auto-help ours_grep ex2 "$AUTO -help" "-mat_sptrsv_expected_solves <(now )?0" "-mat_sptrsv_auto_candidates" "-mat_sptrsv_auto_model <(now )?auto" "-mat_sptrsv_subgraph_rows" "-mat_sptrsv_levels"
run_test view/auto-bad-candidate ours_fails ex2 "$AUTO -mat_sptrsv_auto_candidates level,bogus" "-mat_sptrsv_auto_candidates: bogus is not a path \(paths: level,element,syncfree,locality(,[a-z]+)*\)"
run_test view/auto-bad-model ours_fails ex2 "$AUTO -mat_sptrsv_auto_model a100" "-mat_sptrsv_auto_model a100: no such cost model \(auto, none, h100, h200\)"
run_test view/auto-bad-solves ours_fails ex2 "$AUTO -mat_sptrsv_expected_solves -2" "-mat_sptrsv_expected_solves -2: must be 0 \(unknown\) or a positive count"
run_test view/auto-csc-no-candidate ours_fails ex2 "-m 30 -n 30 -pc_type bjacobi -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv -sub_mat_sptrsv_format csc -sub_mat_sptrsv_auto_candidates syncfree,locality" "sptrsv: no candidate path solves ILU factors in format csc on the host backend \(-sub_mat_sptrsv_auto_candidates\)"
# -mat_sptrsv_auto_model FILE: the built-in H100 model read back from its generated file gives a choice named after the file
run_test view/auto-model-file ours_grep ex2 "$AUTO_SETUP -mat_sptrsv_auto_model $ROOT/src/mat/paths/auto_models/h100.h -ksp_view" "automatic choice: [a-z]+( fill[0-9]+)? \(smallest predicted solve time \(model .*auto_models/h100.h\)\)" "predicted: [a-z]+"
run_test view/auto-model-file-bad ours_fails ex2 "$AUTO -mat_sptrsv_auto_model $ROOT/README.md" "Cost model file .*README.md holds no SPTRSV_AUTO_MODEL line"

# the learning choice (the default): it starts on the start path (on the host: level, the host rule's first), counts the
# solves, times the path in place in the 2nd and 3rd solves and looks at 8, 16, 32, ... solves; without a model it stays
run_test view/auto-learn-host ours_grep ex2 "$AUTO -ksp_view" "automatic choice: level \(learning on the host backend: the host rule's first, level, the host reference\)" "learning: started on level \(setup [0-9.e+-]+ ms\); level in place, measured [0-9.e+-]+ ms per solve; [1-9][0-9]* looks" "last look: after [0-9]+ solves: level measured [0-9.e+-]+ ms per solve; no cost model for this backend \(-mat_sptrsv_auto_model names one\): it stays" "start order: level, syncfree, element, locality"
# a model file that predicts level far faster than pinv: started on pinv (-mat_sptrsv_auto_start), level is weighed
# worth its setup at the first look, built, timed against pinv with 16x fill (about 9x slower on the host) and switched to;
# the solves stay PETSc's (histories), transposed solves (BiCG) take the new path, refactorizations (Newton) keep it
LEARN_MODEL=$ROOT/tests/data/learn-model.h
LEARN="-mat_sptrsv_auto_model $LEARN_MODEL -mat_sptrsv_auto_candidates pinv,level -mat_sptrsv_auto_start pinv -mat_sptrsv_pinv_fill 16"
run_test view/auto-learn-switch ours_grep ex2 "-m 100 -n 100 -pc_type ilu -pc_factor_mat_solver_type sptrsv $LEARN -ksp_view -info" "automatic choice: level \(learning: switched from pinv after 8 solves, measured faster\)" "last look: after [0-9]+ solves: level measured" "timed: after 8 solves level built in [0-9.e+-]+ ms, [0-9.e+-]+ ms per solve against pinv [0-9.e+-]+ ms: switched" "learning: after 8 solves: pinv measured [0-9.e+-]+ ms per solve; level counted [0-9.e+-]+ ms \(model 1e-06, trusted 3x at most\), setup 0.001 ms: saving [0-9.e+-]+ ms over 8 more solves > 2. x 0.001 ms: build and time it" "path sptrsv \(automatic: L sptrsv_level, U sptrsv_level\)"
run_test ex2/auto-learn-switch-histories with_solver sptrsv compare_case 1 ex2 "-m 100 -n 100 -ksp_type gmres -pc_type ilu -ksp_monitor" "$LEARN"
run_test ex2/auto-learn-switch-bicg-transpose with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -ksp_type bicg -pc_type ilu -ksp_monitor" "$LEARN"
run_test ex19/auto-learn-switch-newton with_solver sptrsv compare_case 1 ex19 "-da_grid_x 16 -da_grid_y 16 -pc_type ilu -mat_no_inode -snes_monitor -ksp_monitor" "$LEARN"
# the look's second question: started on syncfree (host backend, no model), margin 0: its runs dispatch is weighed at the
# first look, built, timed against the level dispatch in place and kept or switched to (by the host's timing); the
# solutions stay PETSc's (histories) either way
LEARN_RUNS="-mat_sptrsv_auto_start syncfree -mat_sptrsv_auto_learn_margin 0"
run_test view/auto-learn-runs-variant ours_grep ex2 "-m 100 -n 100 -pc_type ilu -pc_factor_mat_solver_type sptrsv $LEARN_RUNS -ksp_view -info" "learning: after 8 solves: syncfree runs predicted 0.5 of the [0-9.e+-]+ ms measured, setup [0-9.e+-]+ ms: saving [0-9.e+-]+ ms over 8 more solves > 0.? x [0-9.e+-]+ ms: build and time it" "timed: after 8 solves syncfree runs built in [0-9.e+-]+ ms, [0-9.e+-]+ ms per solve against syncfree [0-9.e+-]+ ms: (switched|kept)"
run_test ex2/auto-learn-runs-variant-histories with_solver sptrsv compare_case 1 ex2 "-m 100 -n 100 -ksp_type gmres -pc_type ilu -ksp_monitor" "$LEARN_RUNS"
# the learning start on a path that analyses L and U at once (sync-free): one pair, the same solutions as PETSc's
LEARN_PAIR="-mat_sptrsv_auto_start syncfree -mat_sptrsv_dispatch runs -mat_sptrsv_setup_threads 3"
run_test view/auto-learn-start-pair ours_grep ex2 "-m 60 -n 50 -pc_type ilu -pc_factor_mat_solver_type sptrsv $LEARN_PAIR -ksp_view -info" "learning starts L and U on sptrsv_syncfree, analysed at once" "path sptrsv \(automatic: L sptrsv_syncfree, U sptrsv_syncfree\)" "sync-free: runs dispatch"
run_test ex2/auto-learn-start-pair-histories with_solver sptrsv compare_case 1 ex2 "-m 60 -n 50 -ksp_type gmres -pc_type ilu -ksp_monitor" "$LEARN_PAIR"
run_test view/auto-learn-margin-bad ours_fails ex2 "$AUTO -mat_sptrsv_auto_learn_margin -1" "-mat_sptrsv_auto_learn_margin -1.: must be >= 0"
run_test view/auto-learn-start-bad ours_fails ex2 "$AUTO -mat_sptrsv_auto_start bogus" "-mat_sptrsv_auto_start bogus: not a path"
run_test view/auto-learn-with-solves ours_fails ex2 "$AUTO -mat_sptrsv_auto_learn 1 -mat_sptrsv_expected_solves 10" "-mat_sptrsv_auto_learn and -mat_sptrsv_expected_solves 10 exclude each other"
run_test view/auto-learn-with-measure ours_fails ex2 "$AUTO -mat_sptrsv_auto_learn 1 -mat_sptrsv_auto_measure 1" "-mat_sptrsv_auto_learn and -mat_sptrsv_auto_measure 1 exclude each other"
run_test view/auto-learn-help ours_grep ex2 "$AUTO -help" "-mat_sptrsv_auto_learn: <(now )?(TRUE|FALSE)" "-mat_sptrsv_auto_learn_margin <(now )?2\.? " "-mat_sptrsv_auto_start"
# the memory of the builds (-mat_sptrsv_auto_learn_remember): two blocks of block Jacobi in one process, a model file
# that predicts pinv fill 4 far faster than level (tests/data/learn-model-pinv.h), margin 0: the first block's look
# builds pinv, times it far slower than counted and keeps level; the second block then counts pinv that much slower and
# builds nothing (one build in the process); without the memory both blocks build it (two)
learn_remember_case() { # learn_remember_case REMEMBER WANT: WANT builds of pinv in the process
  local r=$1 want=$2 o=$OUT/grep.out n
  need_file "$OUT/bin/ex2" "see the build/programs test" || return 1
  prun "$o" "$OUT/bin/ex2" -dll_append "$LIB" -m 60 -n 60 -pc_type bjacobi -pc_bjacobi_blocks 2 -sub_pc_type ilu -sub_pc_factor_mat_solver_type sptrsv -sub_mat_sptrsv_auto_model "$ROOT/tests/data/learn-model-pinv.h" -sub_mat_sptrsv_auto_candidates level,pinv -sub_mat_sptrsv_auto_learn_margin 0 -sub_mat_sptrsv_auto_learn_remember "$r" -info || fail "run failed" || return 1
  n=$(grep -c "learning: after 8 solves pinv fill4 built in .* kept" "$o")
  say "pinv built and kept out $n times (-sub_mat_sptrsv_auto_learn_remember $r)"
  [ "$n" = "$want" ] || fail "pinv built $n times, want $want"
}
run_test view/auto-learn-remember learn_remember_case 1 1
run_test view/auto-learn-remember-off learn_remember_case 0 2
# a build the learning choice names but whose analysis shows it cannot beat the path in place: the partitioned inverse's
# launches per solve times -mat_sptrsv_pinv_launch_us (the backend's floor of a launch: 2.3 us on the GPU, 0 on the
# host; 100 here) above the level path's measured time: refused at its analysis on L, before its numeric phase, and
# then not built for U either; the level path stays and the iterations are PETSc's
FLOOR="-mat_sptrsv_auto_model $ROOT/tests/data/learn-model-pinv.h -mat_sptrsv_auto_candidates level,pinv -mat_sptrsv_auto_learn_margin 0 -mat_sptrsv_pinv_launch_us 100"
run_test view/auto-learn-pinv-launch-floor ours_grep ex2 "-m 60 -n 60 -pc_type ilu -pc_factor_mat_solver_type sptrsv $FLOOR -ksp_view -info" "sptrsv: L triangle, learning: pinv refused the triangle: its [0-9]+ parts take [0-9]+ launches per solve, at least [0-9.e+-]+ ms \(-mat_sptrsv_pinv_launch_us 100\.?\), not below the [0-9.e+-]+ ms it must beat" "sptrsv: U triangle, learning: after 8 solves: level measured [0-9.e+-]+ ms per solve; no candidate left predicted 10% faster" "path sptrsv \(automatic: L sptrsv_level, U sptrsv_level\)"
run_test ex2/auto-learn-pinv-launch-floor-histories with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -pc_type ilu -ksp_monitor" "$FLOOR"
run_test view/pinv-launch-us-help ours_grep ex2 "-m 30 -n 30 -pc_type ilu -pc_factor_mat_solver_type sptrsv_pinv -help" "-mat_sptrsv_pinv_launch_us <(now )?-1\.? : (formerly )?-1\.?>"
REMEMBER="-sub_mat_sptrsv_auto_model $ROOT/tests/data/learn-model-pinv.h -sub_mat_sptrsv_auto_candidates level,pinv -sub_mat_sptrsv_auto_learn_margin 0"
run_test ex2/auto-learn-remember-bjacobi-histories with_solver sptrsv compare_case 1 ex2 "-m 60 -n 60 -ksp_type gmres -pc_type bjacobi -pc_bjacobi_blocks 2 -sub_pc_type ilu -ksp_monitor" "$REMEMBER" sub_
