/* A cost model for the tests of the learning choice's memory (tests/suites/auto.sh): pinv predicted far faster than level,
   which it is not on the host with 4x fill (the model's variant fill4), so its first build measures far slower than counted */
SPTRSV_AUTO_MODEL(level, "", SPTRSV_AUTO_SOLVE(1, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1e-3, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))
SPTRSV_AUTO_MODEL(pinv, "fill4", SPTRSV_AUTO_SOLVE(1e-6, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1e-3, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))
