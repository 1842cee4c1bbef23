#pragma once
// The one place clreduce includes OpenCL-CLHPP. clreduce targets OpenCL 1.2 so that
// NVIDIA, AMD, Intel and PoCL devices all work; a user who includes CLHPP first with
// other settings keeps them.
#ifndef CL_HPP_TARGET_OPENCL_VERSION
#define CL_HPP_TARGET_OPENCL_VERSION 120
#endif
#ifndef CL_HPP_MINIMUM_OPENCL_VERSION
#define CL_HPP_MINIMUM_OPENCL_VERSION 120
#endif
#include <CL/opencl.hpp>
