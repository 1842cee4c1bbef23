#pragma once
// clreduce::opencv: OpenCV's reductions with OpenCV's own signatures, run by clreduce. Code
// that calls cv::sum, cv::minMaxLoc, ... switches by calling clreduce::opencv::sum,
// clreduce::opencv::minMaxLoc, ... instead, or through a namespace alias (`namespace ours =
// clreduce::opencv;` where it was `= cv`): same arguments, same results where OpenCV's are
// exact (docs/opencv.md says where and why they differ). Calls must be qualified: unqualified,
// argument-dependent lookup also finds cv::sum, and the call is ambiguous.
//
// Inputs: cv::Mat, cv::UMat (and what cv::InputArray wraps), 2-D, 1 to 4 channels, of depth
// CV_8U, CV_8S, CV_16U, CV_16S, CV_32S, CV_32F, CV_64F and CV_16F (on devices with
// cl_khr_fp16; elsewhere clreduce::Unsupported names the extension), continuous or not (ROIs).
// A cv::UMat is reduced in place, on OpenCV's own OpenCL context and queue
// (cv::ocl::Context::getDefault(), cv::ocl::Queue::getDefault()): nothing is copied and no
// second context is made (one with a live getMat() mapping is read through it, as a Mat).
// A cv::Mat is reduced by one Reducer on clreduce's default device
// (clreduce::default_device(); CLREDUCE_DEVICE chooses), made at the first call and kept: its
// data is copied in, or read in place by a CPU device.
//
// Masks: CV_8UC1 of the input's size, selecting the pixels that take part; the kernels skip
// the others (nothing is copied or compacted). Bad arguments throw cv::Exception as OpenCV's
// functions do (a mask of the wrong size or type, more than 4 channels, an unsupported depth,
// a norm or reduce type OpenCV does not have); what the device cannot do throws the
// clreduce::Error that names it. cv::noArray() as the source: sum, mean and norm give 0, the
// others throw cv::Exception, as OpenCV 4.6's.
#include <opencv2/core.hpp>

#include <clreduce/reducer.hpp>

namespace clreduce::opencv {

// The per-channel sums (integers exact, floats in double; cv::sum's float sums on a UMat
// accumulate in float).
cv::Scalar sum(cv::InputArray src);
// The per-channel means of the pixels the mask selects (0 where it selects none).
cv::Scalar mean(cv::InputArray src, cv::InputArray mask = cv::noArray());
// Per-channel mean and population standard deviation, written as cv::meanStdDev does (a
// channels x 1 CV_64F array, made anew where the output has another shape or type, or into
// one of fixed size such as a cv::Scalar); 0 where the mask selects no pixel.
void meanStdDev(cv::InputArray src, cv::OutputArray mean, cv::OutputArray stddev, cv::InputArray mask = cv::noArray());
// Extremes of a one-channel array and where they first occur (row-major); where the mask
// selects no pixel: 0 and (-1, -1), as OpenCV. NaN is skipped; where every pixel is NaN:
// +inf and -inf at (0, 0), with a mask 0 and (-1, -1), as OpenCV's CPU code.
void minMaxLoc(cv::InputArray src, double* minVal, double* maxVal = nullptr, cv::Point* minLoc = nullptr,
               cv::Point* maxLoc = nullptr, cv::InputArray mask = cv::noArray());
// The same with indices {row, column} (a multi-channel array without mask and indices is
// read as one channel of all its elements, as OpenCV does).
void minMaxIdx(cv::InputArray src, double* minVal, double* maxVal = nullptr, int* minIdx = nullptr,
               int* maxIdx = nullptr, cv::InputArray mask = cv::noArray());
// Nonzero elements of a one-channel array.
int countNonZero(cv::InputArray src);
// NORM_L1, NORM_L2, NORM_L2SQR or NORM_INF of all channels together (NORM_L2 and NORM_L2SQR
// of integers correctly rounded from the exact sum of squares).
double norm(cv::InputArray src, int normType = cv::NORM_L2, cv::InputArray mask = cv::noArray());
// Rows (dim 0: one row out) or columns (dim 1: one column out) reduced by REDUCE_SUM,
// REDUCE_AVG, REDUCE_MAX, REDUCE_MIN (and REDUCE_SUM2 where OpenCV has it), on clreduce's
// rows/columns engine. The results are exact (integers) or in double, then converted to
// dtype (-1: the source's depth, as OpenCV) saturated: integer dtypes clamp to their range
// and round to nearest even, NaN gives 0. Every depth to every dtype, where OpenCV refuses
// some (CV_32S sums, 8-bit sums into 8 bits). An empty array gives OpenCV's shape, zeros.
void reduce(cv::InputArray src, cv::OutputArray dst, int dim, int rtype, int dtype = -1);

// The Reducer that runs calls on `src`: for a UMat, the one on OpenCV's current context and
// queue; for anything else, the default device's. (For tuning, CallInfo, LaunchParams.)
const Reducer& reducer_for(cv::InputArray src);

}  // namespace clreduce::opencv
