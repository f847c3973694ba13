/*
 * gmon_format.h - the two gmon.out layouts gprof reads, named once for the
 * reader (gmon_read.c) and the writers (formats/gmon_write.c).
 */
#ifndef MCUPROF_GMON_FORMAT_H
#define MCUPROF_GMON_FORMAT_H

enum mp_gmon_format { MP_GMON_GNU, MP_GMON_BSD };

#endif /* MCUPROF_GMON_FORMAT_H */
