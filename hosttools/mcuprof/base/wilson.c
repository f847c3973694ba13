/* wilson.c - the intervals of wilson.h. */
#include "wilson.h"

#include <math.h>

/* z of a two-sided 95 % interval */
#define Z95 1.959963984540054

void mp_wilson(double k, double n, double *lo, double *hi)
{
    double p, z2, denom, centre, half;

    if (n <= 0.0) {
        *lo = 0.0;
        *hi = 1.0;
        return;
    }
    p = k / n;
    if (p < 0.0)
        p = 0.0;
    if (p > 1.0)
        p = 1.0;
    z2 = Z95 * Z95;
    denom = 1.0 + z2 / n;
    centre = (p + z2 / (2.0 * n)) / denom;
    half = Z95 * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / denom;
    *lo = centre - half < 0.0 ? 0.0 : centre - half;
    *hi = centre + half > 1.0 ? 1.0 : centre + half;
}

void mp_wilson_draws(double k, double n, double draws, double *lo, double *hi)
{
    double f = n > 0.0 && draws > 0.0 && draws < n ? draws / n : 1.0;

    mp_wilson(k * f, n * f, lo, hi);
}
