// Switching OpenCV code to clreduce: the same calls, in namespace clreduce::opencv.
#include <cstdio>

#include <opencv2/core.hpp>

#include <clreduce/opencv.hpp>

namespace ours = clreduce::opencv;  // was: namespace ours = cv;

int main() {
    cv::Mat image(1080, 1920, CV_8UC3);
    cv::randu(image, 0, 256);
    cv::Mat mask(image.size(), CV_8U);
    cv::randu(mask, 0, 2);
    cv::UMat on_device = image.getUMat(cv::ACCESS_READ);

    const cv::Scalar total = ours::sum(on_device);
    const cv::Scalar average = ours::mean(image, mask);
    double lowest = 0, highest = 0;
    cv::Point where_lowest, where_highest;
    cv::Mat green;
    cv::extractChannel(image, green, 1);
    ours::minMaxLoc(green, &lowest, &highest, &where_lowest, &where_highest, mask);
    cv::Mat column_sums;
    ours::reduce(image, column_sums, 0, cv::REDUCE_SUM, CV_64F);

    std::printf("sum (%.0f, %.0f, %.0f), masked mean (%.3f, %.3f, %.3f)\n", total[0], total[1], total[2], average[0],
                average[1], average[2]);
    std::printf("green min %.0f at (%d, %d), max %.0f at (%d, %d)\n", lowest, where_lowest.x, where_lowest.y, highest,
                where_highest.x, where_highest.y);
    // The same calls through OpenCV: integer results are exact in both, so they agree.
    const bool same = total == cv::sum(image) && cv::norm(
                                                     column_sums,
                                                     [&] {
        cv::Mat theirs;
        cv::reduce(image, theirs, 0, cv::REDUCE_SUM, CV_64F);
        return theirs;
                                                     }(),
                                                     cv::NORM_INF) == 0;
    std::printf("the same as OpenCV's: %s\n", same ? "yes" : "no");
    return same ? 0 : 1;
}
