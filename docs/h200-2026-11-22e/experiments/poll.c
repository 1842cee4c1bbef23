// Experiment: does a non-blocking read's data land in pinned host memory before the driver
// reports it? Compare a blocking read with polling the pinned word.
#include "setup.h"

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 300;
  struct Setup s = setup();
  cl_context ctx = s.ctx; cl_command_queue q = s.q, pq = s.pq; cl_kernel k = s.k;
  cl_mem out = s.out, hostbuf = s.hostbuf; int64_t* pinned = s.pinned; cl_int err;
  int64_t* pageable = (int64_t*)aligned_alloc(64, 4096);
  int64_t* usehost = (int64_t*)aligned_alloc(4096, 4096);
  cl_mem usebuf = clCreateBuffer(ctx, CL_MEM_USE_HOST_PTR, 4096, usehost, &err); CK(err);
  CK(clSetKernelArg(k, 0, sizeof out, &out));
  size_t one = 1;
  // calibrate
  cl_ulong iters = 100000; cl_long v = 1;
  CK(clSetKernelArg(k, 1, sizeof v, &v)); CK(clSetKernelArg(k, 2, sizeof iters, &iters));
  double ns_per_iter = 0;
  for (int i = 0; i < 5; ++i) {
    cl_event e; CK(clEnqueueNDRangeKernel(pq, k, 1, NULL, &one, &one, 0, NULL, &e)); CK(clWaitForEvents(1, &e));
    cl_ulong a, b; clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
    clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL); clReleaseEvent(e);
    ns_per_iter = (double)(b - a) / iters;
  }
  printf("ns per iteration %.3f\n", ns_per_iter);
  double targets[] = {0, 3, 6, 12, 20, 80, 900};
  double* t = malloc(sizeof(double) * reps);
  long counter = 100;
  for (int ti = 0; ti < (int)(sizeof targets / sizeof *targets); ++ti) {
    iters = (cl_ulong)(targets[ti] * 1000 / ns_per_iter);
    CK(clSetKernelArg(k, 2, sizeof iters, &iters));
    // device time
    double dev_us = 0;
    { cl_event e; CK(clEnqueueNDRangeKernel(pq, k, 1, NULL, &one, &one, 0, NULL, &e)); CK(clWaitForEvents(1, &e));
      cl_ulong a, b; clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL); clReleaseEvent(e); dev_us = (b - a) / 1e3; }
    CK(clFinish(pq));
    for (int mode = 0; mode < 6; ++mode) {
      int bad = 0, timeouts = 0;
      for (int r = -10; r < reps; ++r) {
        cl_long value = ++counter;
        CK(clSetKernelArg(k, 1, sizeof value, &value));
        int64_t* dst = mode == 3 ? pageable : pinned;
        volatile int64_t* vd = dst;
        *vd = -1;
        double t0 = now_us();
        if (mode >= 4) CK(clSetKernelArg(k, 0, sizeof out, mode == 4 ? &hostbuf : &usebuf));
        if (mode >= 4) { dst = mode == 4 ? pinned : usehost; vd = dst; *vd = -1; }
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        int64_t got;
        if (mode >= 4) {
          CK(clFlush(q));
          double start = now_us();
          while ((got = *vd) == -1) { if (now_us() - start > 100000) { timeouts++; CK(clFinish(q)); got = *vd; break; } }
          CK(clSetKernelArg(k, 0, sizeof out, &out));
        } else if (mode == 0) {
          CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, dst, 0, NULL, NULL)); got = *vd;
        } else if (mode == 1 || mode == 3) {
          CK(clEnqueueReadBuffer(q, out, CL_FALSE, 0, 8, dst, 0, NULL, NULL));
          CK(clFlush(q));
          double start = now_us();
          while ((got = *vd) == -1) { if (now_us() - start > 100000) { timeouts++; CK(clFinish(q)); got = *vd; break; } }
        } else {  // mode 2: flush after kernel, blocking read
          CK(clFlush(q));
          CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, dst, 0, NULL, NULL)); got = *vd;
        }
        double t1 = now_us();
        if (got != value) bad++;
        if (r >= 0) t[r] = t1 - t0;
      }
      CK(clFinish(q));
      qsort(t, reps, sizeof *t, cmp);
      const char* names[] = {"blocking read", "nonblocking+flush+poll pinned", "flush+blocking read", "nonblocking+flush+poll pageable", "kernel writes ALLOC_HOST_PTR, poll", "kernel writes USE_HOST_PTR, poll"};
      printf("target %6.1f dev %7.2f us | %-32s median %7.2f p10 %7.2f p90 %7.2f | wrong %d timeouts %d\n",
             targets[ti], dev_us, names[mode], t[reps / 2], t[reps / 10], t[reps * 9 / 10], bad, timeouts);
      fflush(stdout);
    }
  }
  return 0;
}
