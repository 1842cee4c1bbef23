// Experiment 3: the polled non-blocking read against the blocking read, and whether delaying
// the non-blocking read's enqueue (pacing) still helps, over kernels of 5-30 us device time.
#include "setup.h"

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  struct Setup s = setup();
  cl_command_queue q = s.q, pq = s.pq; cl_kernel k = s.k;
  cl_mem out = s.out; int64_t* pinned = s.pinned;
  CK(clSetKernelArg(k, 0, sizeof out, &out));
  size_t one = 1;
  cl_ulong iters; cl_long counter = 100;
  CK(clSetKernelArg(k, 1, sizeof counter, &counter));
  double* t = malloc(sizeof(double) * reps);
  double* d = malloc(sizeof(double) * reps);
  const double delays[] = {0, 2, 4, 6, 8, 10, 12, 16, 20};
  const int ndelays = sizeof delays / sizeof *delays;
  for (int target = 0; target <= 30000; target += (target < 16000 ? 1000 : 2000)) {
    iters = (cl_ulong)(target / 2.39);
    CK(clSetKernelArg(k, 2, sizeof iters, &iters));
    for (int r = 0; r < reps; ++r) {
      cl_event e; CK(clEnqueueNDRangeKernel(pq, k, 1, NULL, &one, &one, 0, NULL, &e)); CK(clWaitForEvents(1, &e));
      cl_ulong a, b; clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_START, sizeof a, &a, NULL);
      clGetEventProfilingInfo(e, CL_PROFILING_COMMAND_END, sizeof b, &b, NULL); clReleaseEvent(e); d[r] = (b - a) / 1e3;
    }
    qsort(d, reps, sizeof *d, cmp);
    printf("dev %6.2f |", d[reps / 2]);
    for (int mode = -1; mode < ndelays; ++mode) {
      int bad = 0;
      for (int r = -5; r < reps; ++r) {
        cl_long value = ++counter;
        CK(clSetKernelArg(k, 1, sizeof value, &value));
        volatile int64_t* vd = pinned;
        *vd = -1;
        double t0 = now_us();
        CK(clEnqueueNDRangeKernel(q, k, 1, NULL, &one, &one, 0, NULL, NULL));
        int64_t got;
        if (mode < 0) {
          CK(clEnqueueReadBuffer(q, out, CL_TRUE, 0, 8, pinned, 0, NULL, NULL)); got = *vd;
        } else {
          if (delays[mode] > 0) { CK(clFlush(q)); while (now_us() - t0 < delays[mode]) {} }
          CK(clEnqueueReadBuffer(q, out, CL_FALSE, 0, 8, pinned, 0, NULL, NULL));
          CK(clFlush(q));
          double start = now_us();
          while ((got = *vd) == -1) { if (now_us() - start > 100000) { CK(clFinish(q)); got = *vd; break; } }
        }
        double t1 = now_us();
        if (got != value) bad++;
        if (r >= 0) t[r] = t1 - t0;
      }
      CK(clFinish(q));
      qsort(t, reps, sizeof *t, cmp);
      printf(" %s%6.2f%s", mode < 0 ? "blocking " : "", t[reps / 2], bad ? "!WRONG" : "");
      if (mode < 0) printf(" | poll after");
      else printf("@%g", delays[mode]);
    }
    printf("\n");
    fflush(stdout);
  }
  return 0;
}
