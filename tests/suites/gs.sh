# sourced by tests/run-tests.sh (its helpers, variables and run_test); not a program of its own
# shellcheck shell=bash disable=SC2154
# f. PC gs against PCSOR (same options; PC gs is point Gauss-Seidel: PCSOR on matrices without inodes)
G2="-m 50 -n 50 -ksp_monitor"
run_test gs/ex2-symmetric gs_case 1 ex2 "$G2" "-pc_type sor" "-pc_type gs"
run_test gs/ex2-forward-element gs_case 1 ex2 "$G2" "-pc_type sor -pc_sor_forward" "-pc_type gs -pc_gs_type forward -pc_gs_scheduler element"
run_test gs/ex2-backward-csc gs_case 1 ex2 "$G2" "-pc_type sor -pc_sor_backward" "-pc_type gs -pc_gs_type backward -pc_gs_format csc"
run_test gs/ex2-omega-its gs_case 1 ex2 "$G2" "-pc_type sor -pc_sor_omega 1.5 -pc_sor_its 3" "-pc_type gs -pc_gs_omega 1.5 -pc_gs_its 3 -pc_gs_scheduler element"
run_test gs/ex2-richardson-omega gs_case 1 ex2 "$G2 -ksp_type richardson -ksp_max_it 200" "-pc_type sor -pc_sor_omega 1.7" "-pc_type gs -pc_gs_omega 1.7 -pc_gs_format csc -pc_gs_scheduler element"
run_test gs/ex2-shift gs_case 1 ex2 "$G2" "-pc_type sor -pc_sor_diagonal_shift 0.1 -pc_sor_its 2" "-pc_type gs -pc_gs_diagonal_shift 0.1 -pc_gs_its 2"
run_test gs/ex2-bjacobi-np2 gs_case 2 ex2 "$G2 -pc_type bjacobi" "-sub_pc_type sor -sub_pc_sor_its 2" "-sub_pc_type gs -sub_pc_gs_its 2 -sub_pc_gs_scheduler element"
run_test gs/ex2-local-np2 gs_case 2 ex2 "$G2" "-pc_type sor" "-pc_type gs"
run_test gs/ex45-default gs_case 1 ex45 "-ksp_monitor" "-pc_type sor" "-pc_type gs"
run_test gs/ex45-grid17-element gs_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_monitor" "-pc_type sor" "-pc_type gs -pc_gs_scheduler element"
run_test gs/ex45-mg-chebyshev gs_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type mg -pc_mg_levels 3 -ksp_monitor" "-mg_levels_pc_type sor" "-mg_levels_pc_type gs"
run_test gs/ex45-mg-richardson gs_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -ksp_monitor" "-mg_levels_pc_type sor -mg_levels_pc_sor_omega 1.2" "-mg_levels_pc_type gs -mg_levels_pc_gs_omega 1.2 -mg_levels_pc_gs_scheduler element"
run_test gs/ex45-gamg-richardson gs_case 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type gamg -mg_levels_ksp_type richardson -ksp_monitor" "-mg_levels_pc_type sor" "-mg_levels_pc_type gs"
run_test gs/ex45-bjacobi-np2 gs_case 2 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type bjacobi -ksp_monitor" "-sub_pc_type sor" "-sub_pc_type gs -sub_pc_gs_format csc"
run_test gs/bcsstk13-cg-symmetric gs_case 1 mmsolve "-f $MATDIR/bcsstk13.mtx.gz -ksp_type cg -ksp_max_it 300 -mat_no_inode -ksp_monitor" "-pc_type sor -pc_sor_omega 1.2" "-pc_type gs -pc_gs_omega 1.2"
run_test gs/missing-diagonal-error ours_fails mmsolve "-f $MATDIR/west0479.mtx.gz -ksp_type gmres -pc_type gs" "row [0-9]+ has no diagonal entry"
# a zero diagonal entry, as PCSOR (MatSOR): with omega = 1 and no shift both stop with an error; with omega != 1
# both go on with an Inf diagonal (DIVERGED_NANORINF); with omega = 1 and a negative shift both fail the PC
# (DIVERGED_PC_FAILED); with -ksp_error_if_not_converged ours stops with its own message naming the row
ZD="-builtin zerodiag -ksp_type gmres"
run_test gs/zero-diagonal-error both_fail mmsolve "$ZD" "-pc_type sor" "-pc_type gs" "Zero diagonal on row 1" "Gauss-Seidel: zero diagonal on row 1"
run_test gs/zero-diagonal-omega same_reason 1 mmsolve "$ZD" "-pc_type sor -pc_sor_omega 1.3" "-pc_type gs -pc_gs_omega 1.3" DIVERGED_NANORINF
run_test gs/zero-diagonal-negative-shift same_reason 1 mmsolve "$ZD" "-pc_type sor -pc_sor_diagonal_shift -0.5" "-pc_type gs -pc_gs_diagonal_shift -0.5" DIVERGED_PC_FAILED
run_test gs/zero-diagonal-sor-names same_reason 1 mmsolve "$ZD" "-pc_type sor -pc_sor_diagonal_shift -0.5 -pc_sor_forward" "-pc_type gs -pc_sor_diagonal_shift -0.5 -pc_sor_forward" DIVERGED_PC_FAILED
run_test gs/zero-diagonal-omega-error both_fail mmsolve "$ZD -pc_sor_omega 1.3 -ksp_error_if_not_converged" "-pc_type sor" "-pc_type gs" "not converged due to Nan or Inf" "Gauss-Seidel: the relaxed inverse diagonal entry .* of row 1 is not finite"
run_test gs/zero-diagonal-shift-error both_fail mmsolve "$ZD -pc_sor_diagonal_shift -0.5 -ksp_error_if_not_converged" "-pc_type sor" "-pc_type gs" "not converged due to Nan or Inf" "Gauss-Seidel: zero diagonal on row 1"
# PCSOR's option names: -pc_type gs is a drop-in for -pc_type sor (same options, same iterations and residuals)
gs_sor_names() { # gs_sor_names NP PROG COMMON SOR_OPTIONS VIEW_PATTERN [PREFIX]: -[PREFIX]pc_type sor and gs, the same -pc_sor_* options
  gs_case "$1" "$2" "$3" "-${6:-}pc_type sor $4" "-${6:-}pc_type gs $4" || return 1
  grep -Eq -- "$5" "$OUT/ours.out" || fail "-ksp_view lacks /$5/"
}
run_test gs/sor-names-omega-its-symmetric gs_sor_names 1 ex2 "$G2" "-pc_sor_omega 1.3 -pc_sor_its 2 -pc_sor_symmetric" "values from PCSOR's option names: -pc_sor_symmetric \(type symmetric\); -pc_sor_omega 1.3; -pc_sor_its 2"
run_test gs/sor-names-lits-local-backward-shift gs_sor_names 1 ex2 "$G2" "-pc_sor_lits 2 -pc_sor_local_backward -pc_sor_diagonal_shift 0.1" "-pc_sor_local_backward \(type backward\); -pc_sor_lits 2; -pc_sor_diagonal_shift 0.1"
run_test gs/sor-names-its-lits-forward gs_sor_names 1 ex2 "$G2" "-pc_sor_its 2 -pc_sor_lits 3 -pc_sor_forward" "-pc_sor_forward \(type forward\); -pc_sor_its 2; -pc_sor_lits 3"
run_test gs/sor-names-mg-richardson gs_sor_names 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -pc_type mg -pc_mg_levels 3 -mg_levels_ksp_type richardson -ksp_monitor" "-mg_levels_pc_sor_omega 1.2 -mg_levels_pc_sor_its 2" "-pc_sor_omega 1.2; -pc_sor_its 2" mg_levels_
run_test gs/sor-names-np2-local-lits gs_sor_names 2 ex2 "$G2" "-pc_sor_local_forward -pc_sor_lits 3" "-pc_sor_local_forward \(type forward\); -pc_sor_lits 3"
# own names win over PCSOR's: -pc_gs_omega 1.5 with -pc_sor_omega 1.3 is PCSOR with omega 1.5
run_test gs/sor-names-precedence gs_case 1 ex2 "$G2" "-pc_type sor -pc_sor_omega 1.5" "-pc_type gs -pc_gs_omega 1.5 -pc_sor_omega 1.3"
# PCSOR's non-local sweeps on a parallel matrix: PCSOR stops ("Parallel SOR not supported"), so does PC gs, naming the option
gs_parallel_global() {
  local a=$OUT/native.out b=$OUT/ours.out
  need_file "$OUT/bin/ex2" "see the build/programs test" || return 1
  if prun "$a" "${MPIEXEC[@]}" -n 2 "$OUT/bin/ex2" -m 20 -n 20 -pc_type sor -pc_sor_symmetric; then fail "PCSOR accepted -pc_sor_symmetric in parallel"; return 1; fi
  grep -q "Parallel SOR not supported" "$a" || fail "native message lacks 'Parallel SOR not supported'" || return 1
  if prun "$b" "${MPIEXEC[@]}" -n 2 "$OUT/bin/ex2" -dll_append "$LIB" -m 20 -n 20 -pc_type gs -pc_sor_symmetric; then fail "PC gs accepted -pc_sor_symmetric in parallel"; return 1; fi
  ! grep -q "Caught signal" "$b" || fail "our run crashed" || return 1
  grep -q -- "-pc_sor_symmetric: PCSOR's sweeps over the whole parallel matrix are not supported" "$b" || fail "our message does not name -pc_sor_symmetric"
}
run_test gs/sor-names-np2-global-error gs_parallel_global
run_test gs/sor-names-help ours_grep ex2 "-m 30 -n 30 -pc_type gs -help" "-pc_sor_omega" "-pc_sor_its" "-pc_sor_lits" "-pc_sor_diagonal_shift" "-pc_sor_symmetric" "-pc_sor_forward" "-pc_sor_backward" "-pc_sor_local_symmetric" "-pc_sor_local_forward" "-pc_sor_local_backward"
run_test gs/view ours_grep ex2 "-m 30 -n 30 -pc_type gs -ksp_view" "type: gs" "scheduler (level|element) \\(requested auto\\)" "forward sweep" "[0-9]+ levels" "values read from the matrix's host array"
run_test gs/log-view ours_grep ex2 "-m 30 -n 30 -pc_type gs -log_view" "^SpTrsvGSApply " "^SpTrsvGSSetup " "^PCApply "
run_test gs/help ours_grep ex2 "-m 30 -n 30 -pc_type gs -help" "-pc_gs_type" "-pc_gs_omega" "-pc_gs_its" "-pc_gs_scheduler" "-pc_gs_format"

# g. the multicolor ordering (-pc_gs_ordering multicolor): Gauss-Seidel in colour order is not PCSOR's iteration on the
#    matrix (tests/unit/test_multicolor.c compares it with PCSOR on the colour-permuted matrix), so here: converged
#    within MAXITS iterations (about twice the count of exact-order PC gs: red-black SSOR is the weaker preconditioner on
#    ex2, the 2-D Laplacian, 59 GMRES iterations against 38; ex2 has no DMDA, so the default colouring there is jp with
#    4 colours, a few iterations more than red-black), every option used, -ksp_view shows the colours
#    gs_mc_converges NP PROG "ARGS" MAXITS
gs_mc_converges() {
  local np=$1 prog=$2 args=$3 max=$4 o=$OUT/ours.out cmd=() its
  need_file "$OUT/bin/$prog" "see the build/programs test" || return 1
  [ "$np" -gt 1 ] && cmd=("${MPIEXEC[@]}" -n "$np")
  # shellcheck disable=SC2086
  prun "$o" "${cmd[@]}" "$OUT/bin/$prog" -dll_append "$LIB" $args -ksp_converged_reason -ksp_view -options_left || fail "run failed" || return 1
  ! grep -q "There are options you set that were not used" "$o" || fail "options left unused" || return 1
  grep -q "Linear solve converged" "$o" || fail "did not converge" || return 1
  its=$(last_its "$o")
  [ -n "$its" ] && [ "$its" -le "$max" ] || fail "$its iterations, more than $max" || return 1
  grep -Eq "[0-9]+ colours \((natural|jp|dmda): .*\), rows per colour: [0-9]" "$o" || fail "-ksp_view lacks the colours" || return 1
  ! grep -q "sweeps so far 0$" "$o" || fail "a gs PC was set up but never swept" || return 1
  say "converged in $its iterations (bound $max)"
}
MC="-pc_gs_ordering multicolor"
run_test gs/multicolor-ex2 gs_mc_converges 1 ex2 "$G2 -pc_type gs $MC" 80
run_test gs/multicolor-ex2-forward-omega-its gs_mc_converges 1 ex2 "$G2 -pc_type gs $MC -pc_gs_type forward -pc_gs_omega 1.3 -pc_gs_its 2" 60
run_test gs/multicolor-ex2-shift-sor-names gs_mc_converges 1 ex2 "$G2 -pc_type gs $MC -pc_sor_lits 2 -pc_sor_local_backward -pc_sor_diagonal_shift 0.1" 60
run_test gs/multicolor-ex2-bicg-transpose gs_mc_converges 1 ex2 "$G2 -ksp_type bicg -pc_type gs $MC" 60
run_test gs/multicolor-ex2-bicg-transpose-forward gs_mc_converges 1 ex2 "$G2 -ksp_type bicg -pc_type gs $MC -pc_gs_type forward -pc_gs_omega 1.2" 80
run_test gs/multicolor-ex2-local-np2 gs_mc_converges 2 ex2 "$G2 -pc_type gs $MC" 90
run_test gs/multicolor-ex2-bjacobi-np2 gs_mc_converges 2 ex2 "$G2 -pc_type bjacobi -sub_pc_type gs -sub_pc_gs_ordering multicolor -sub_pc_gs_its 2" 50
run_test gs/multicolor-ex45 gs_mc_converges 1 ex45 "-pc_type gs $MC" 14
run_test gs/multicolor-ex45-mg-chebyshev gs_mc_converges 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_type mg -pc_mg_levels 3 -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor" 10
run_test gs/multicolor-ex45-mg-richardson gs_mc_converges 1 ex45 "-da_refine 2 -ksp_type cg -pc_type mg -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor" 10
run_test gs/multicolor-ex45-mg-levels4 gs_mc_converges 1 ex45 "-da_grid_x 33 -da_grid_y 33 -da_grid_z 33 -ksp_type cg -pc_type mg -pc_mg_levels 4 -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor -mg_levels_pc_gs_omega 1.1" 12
run_test gs/multicolor-view ours_grep ex45 "-pc_type gs $MC -ksp_view" "ordering multicolor: Gauss-Seidel in colour order" "2 colours \(dmda: the rule of the PC's DMDA, checked against the matrix, on the host\), rows per colour: [0-9]+ [0-9]+$" "a sweep is 2 (launches|colour passes)" "values read from the matrix's host array"
# the colourings: natural (greedy in row order: red-black on ex2's 5-point grid), jp (ex2 has no DMDA: auto is jp), the dmda
# rule rejected on Galerkin coarse operators (27-point from a 7-point DMDA: auto falls back to jp, dmda is an error)
run_test gs/multicolor-natural-view ours_grep ex2 "-m 30 -n 30 -pc_type gs $MC -pc_gs_coloring natural -ksp_view" "2 colours \(natural: greedy in row order of the symmetrized pattern, on the host\), rows per colour: 450 450$"
run_test gs/multicolor-auto-jp-view ours_grep ex2 "-m 30 -n 30 -pc_type gs $MC -ksp_view" "[3-5] colours \(jp: greedy in hash order of the symmetrized pattern, on the host\)"
run_test gs/multicolor-galerkin-auto gs_mc_converges 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin -mg_levels_ksp_type richardson -mg_levels_ksp_max_it 2 -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor" 12
run_test gs/multicolor-galerkin-auto-view ours_grep ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor -ksp_view" "the DMDA's colouring rule was not used: it gives local row [0-9]+ the colour of a row coupled to it" "2 colours \(dmda: "
run_test gs/multicolor-galerkin-dmda-fails ours_fails ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_type mg -pc_mg_levels 3 -pc_mg_galerkin -mg_levels_pc_type gs -mg_levels_pc_gs_ordering multicolor -mg_levels_pc_gs_coloring dmda" "pc_gs_coloring dmda: the DMDA's rule \(star stencil of width 1, 1 components per node\) gives local row"
run_test gs/options-file-mg-multicolor gs_mc_converges 1 ex45 "-da_grid_x 17 -da_grid_y 17 -da_grid_z 17 -ksp_type cg -pc_mg_levels 3 -options_file $ROOT/petscconf-snippets/gs-mg-multicolor.opts" 10
run_test gs/multicolor-dmda-no-dm-fails ours_fails ex2 "-m 10 -n 10 -pc_type gs $MC -pc_gs_coloring dmda" "-pc_gs_coloring dmda needs a DMDA on the PC"
run_test gs/multicolor-help ours_grep ex2 "-m 30 -n 30 -pc_type gs -help" "-pc_gs_ordering <now exact : formerly exact> Order of the rows" "\(choose one of\) exact multicolor" "-pc_gs_coloring <now auto : formerly auto> Multicolor: the colouring" "\(choose one of\) auto natural jp dmda"
run_test gs/multicolor-bad-value ours_fails ex2 "-m 10 -n 10 -pc_type bjacobi -sub_pc_type gs -sub_pc_gs_ordering colour" "Unknown option colour for -sub_pc_gs_ordering"
