#pragma once
#include <clreduce/device_info.hpp>
#include <clreduce/device_selection.hpp>
#include <clreduce/element_type.hpp>
#include <clreduce/error.hpp>
#include <clreduce/launch_params.hpp>
#include <clreduce/opencl.hpp>
#include <clreduce/reducer.hpp>
