/* A cost model for the tests of the learning choice (tests/suites/auto.sh): level predicted far faster than pinv, so a
   factor started on pinv weighs level worth its setup at its first look (the timing then decides) */
SPTRSV_AUTO_MODEL(level, "", SPTRSV_AUTO_SOLVE(1e-6, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1e-3, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))
SPTRSV_AUTO_MODEL(pinv, "", SPTRSV_AUTO_SOLVE(1, 0, 0, 0, 0, 0), SPTRSV_AUTO_SETUP(1e-3, 0, 0, 0), SPTRSV_AUTO_RANGE(0, 0, 0, 0))
