/* time_os.h - the C++ half of time_os.c's workload, callable from C. */
#ifndef TIME_OS_H
#define TIME_OS_H

#ifdef __cplusplus
extern "C" {
#endif

/* Filter::step(filter_n), then Scale<3>::run(scale_n): spin.h loops of
 * that many iterations each. */
void os_cxx_work(int filter_n, int scale_n);

#ifdef __cplusplus
}
#endif

#endif
