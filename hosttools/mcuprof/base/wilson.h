/*
 * wilson.h - the 95 % interval of a measured share: Wilson's score
 * interval, which stays inside 0..1 and is right for small counts.
 */
#ifndef MCUPROF_WILSON_H
#define MCUPROF_WILSON_H

/* 95 % Wilson score interval of a share K/N (in [0,1]); N = 0 gives 0..1. */
void mp_wilson(double k, double n, double *lo, double *hi);

/* The interval of a share K/N of N periods that DRAWS independent
 * samples measured (DRAWS < N when the bins hold charged missed periods:
 * timing_model.c says why): K/N's interval over DRAWS samples. */
void mp_wilson_draws(double k, double n, double draws, double *lo, double *hi);

#endif /* MCUPROF_WILSON_H */
