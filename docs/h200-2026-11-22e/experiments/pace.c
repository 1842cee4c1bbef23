// Experiment 3: the polled non-blocking read against the blocking read, and whether delaying
// the non-blocking read's enqueue (pacing) still helps, over kernels of 5-30 us device time.
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <stdint.h>

static double now_us(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec * 1e6 + t.tv_nsec / 1e3; }
#define CK(x) do { cl_int e_ = (x); if (e_ != CL_SUCCESS) { printf("%s:%d err %d\n", __FILE__, __LINE__, e_); exit(1);} } while (0)
static int cmp(const void* a, const void* b) { double x = *(const double*)a, y = *(const double*)b; return x < y ? -1 : x > y; }
static const char* src =
"__kernel void busy(__global long* out, long value, ulong iterations) {\n"
"  ulong x = (ulong)value;\n"
"  for (ulong i = 0; i < iterations; ++i) x = x * 6364136223846793005UL + 1442695040888963407UL;\n"
"  if (get_global_id(0) == 0) { out[0] = value; if (x == 0x5eed) out[1] = (long)x; }\n"
"}\n";

int main(int argc, char** argv) {
  int reps = argc > 1 ? atoi(argv[1]) : 100;
  cl_platform_id plats[4]; cl_uint np; CK(clGetPlatformIDs(4, plats, &np));
  cl_uint pi = 0;
  for (cl_uint i = 0; i < np; ++i) { char pn[256]; clGetPlatformInfo(plats[i], CL_PLATFORM_NAME, sizeof pn, pn, NULL); if (strstr(pn, "NVIDIA")) pi = i; }
  cl_device_id dev; CK(clGetDeviceIDs(plats[pi], CL_DEVICE_TYPE_ALL, 1, &dev, NULL));
  char name[256]; clGetDeviceInfo(dev, CL_DEVICE_NAME, sizeof name, name, NULL); printf("device %s\n", name);
  cl_int err; cl_context ctx = clCreateContext(NULL, 1, &dev, NULL, NULL, &err); CK(err);
  cl_command_queue q = clCreateCommandQueue(ctx, dev, 0, &err); CK(err);
  cl_command_queue pq = clCreateCommandQueue(ctx, dev, CL_QUEUE_PROFILING_ENABLE, &err); CK(err);
  cl_program p = clCreateProgramWithSource(ctx, 1, &src, NULL, &err); CK(err);
  CK(clBuildProgram(p, 1, &dev, "", NULL, NULL));
  cl_kernel k = clCreateKernel(p, "busy", &err); CK(err);
  cl_mem out = clCreateBuffer(ctx, CL_MEM_READ_WRITE, 64, NULL, &err); CK(err);
  cl_mem hostbuf = clCreateBuffer(ctx, CL_MEM_ALLOC_HOST_PTR, 4096, NULL, &err); CK(err);
  int64_t* pinned = (int64_t*)clEnqueueMapBuffer(q, hostbuf, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, 4096, 0, NULL, NULL, &err); CK(err);
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
