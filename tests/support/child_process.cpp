#include "child_process.hpp"

#include <cerrno>
#include <cstring>
#include <fstream>

#include <sys/wait.h>
#include <unistd.h>

extern char** environ;

namespace clreduce::testing {
namespace {

// The value `name` had when this process started (/proc/self/environ), if any.
std::optional<std::string> initial_value(const std::string& name) {
    std::ifstream file("/proc/self/environ", std::ios::binary);
    std::string entry;
    while (std::getline(file, entry, '\0'))
        if (entry.compare(0, name.size() + 1, name + "=") == 0) return entry.substr(name.size() + 1);
    return std::nullopt;
}

}  // namespace

ChildResult run_self(const std::vector<std::string>& args,
                     const std::vector<std::pair<std::string, std::optional<std::string>>>& env) {
    // Everything the child needs is prepared before fork: after it only async-signal-safe calls.
    // ocl-icd splits OCL_ICD_FILENAMES in place, so after the first OpenCL call this process's
    // copy holds only its first library (on the lent GPU machine: PoCL, not NVIDIA); the child
    // gets the value the process started with.
    const std::string icd_files = "OCL_ICD_FILENAMES";
    const std::optional<std::string> initial_icd_files = initial_value(icd_files);
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
        if (n > 0) result.output.append(buffer, static_cast<std::size_t>(n));
        else if (n == 0 || errno != EINTR) break;
    }
    ::close(pipe_fds[0]);
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {}
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    return result;
}

}  // namespace clreduce::testing
