#include "reference/child_process.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace clreduce::testing {
namespace {

// OCL_ICD_FILENAMES as it was before the first OpenCL call: ocl-icd splits the variable's
// string in place (also the memory /proc/self/environ reads), so afterwards this process sees
// only its first library (with PoCL listed before NVIDIA: PoCL only). Read at static
// initialisation, before main.
const std::optional<std::string> initial_icd_files = [] {
    const char* value = std::getenv("OCL_ICD_FILENAMES");
    return value == nullptr ? std::nullopt : std::optional<std::string>(value);
}();

}  // namespace

ChildResult run_self(const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::optional<std::string>>>& env) {
    // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
    const std::string icd_files = "OCL_ICD_FILENAMES";  // the child gets the value from before any OpenCL call
    std::vector<std::string> env_strings;
    for (char** e = environ; *e != nullptr; ++e) {
        std::string entry(*e);
        if (initial_icd_files && entry.compare(0, icd_files.size() + 1, icd_files + "=") == 0)
            entry = icd_files + "=" + *initial_icd_files;
        bool replaced = false;
        for (const auto& [name, value] : env) replaced = replaced || entry.compare(0, name.size() + 1, name + "=") == 0;
        if (!replaced) env_strings.push_back(entry);
    }
    for (const auto& [name, value] : env)
        if (value) env_strings.push_back(name + "=" + *value);
    std::vector<std::string> arg_strings{"/proc/self/exe"};
    arg_strings.insert(arg_strings.end(), args.begin(), args.end());
    std::vector<char*> argv, envp;
    for (auto& s : arg_strings) argv.push_back(s.data());
    for (auto& s : env_strings) envp.push_back(s.data());
    argv.push_back(nullptr);
    envp.push_back(nullptr);
    char self[4096];
    const ssize_t length = ::readlink("/proc/self/exe", self, sizeof self - 1);
    if (length <= 0) return {-1, "cannot read /proc/self/exe"};
    self[length] = '\0';

    int pipe_fds[2];
    if (::pipe(pipe_fds) != 0) return {-1, std::string("pipe: ") + std::strerror(errno)};
    const pid_t pid = ::fork();
    if (pid < 0) return {-1, std::string("fork: ") + std::strerror(errno)};
    if (pid == 0) {
        ::dup2(pipe_fds[1], 1);
        ::dup2(pipe_fds[1], 2);
        ::close(pipe_fds[0]);
        ::close(pipe_fds[1]);
        ::execve(self, argv.data(), envp.data());
        ::_exit(127);
    }
    ::close(pipe_fds[1]);
    ChildResult result;
    char buffer[4096];
    for (;;) {
        const ssize_t n = ::read(pipe_fds[0], buffer, sizeof buffer);
        if (n > 0)
            result.output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR)
            break;
    }
    ::close(pipe_fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace clreduce::testing
