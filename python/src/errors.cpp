// The library's exceptions as Python exceptions with its message:
//   clreduce.Error            (Exception) base of all
//   clreduce.InvalidArgument  (Error, ValueError)     a bad argument
//   clreduce.Unsupported      (Error, TypeError)      the device or operation cannot take it
//   clreduce.Overflow         (Error, OverflowError)  an integer result that does not fit
//   clreduce.OpenCLError      (Error) .code, .call    an OpenCL call failed
//   clreduce.BuildError       (OpenCLError) .log, .options   a kernel failed to compile
// so that `except ValueError` and `except clreduce.InvalidArgument` both catch a bad argument.
// The library's messages name its C++ options (LaunchParams::overflow = IntegerOverflow::wrap,
// FloatMode::correctly_rounded, Combine::sum); Python gets them as the keywords it passes.
#include <cctype>
#include <exception>
#include <string>

#include "binding.hpp"

namespace clreduce_python {

namespace {

struct Types {
    PyObject* error = nullptr;
    PyObject* invalid_argument = nullptr;
    PyObject* unsupported = nullptr;
    PyObject* overflow = nullptr;
    PyObject* opencl_error = nullptr;
    PyObject* build_error = nullptr;
};
Types types;  // created once, at import; kept for the process's life as the module holds them

PyObject* new_type(nb::module_& m, const char* name, const char* doc, PyObject* bases) {
    const std::string qualified = std::string("clreduce.") + name;
    PyObject* type = PyErr_NewExceptionWithDoc(qualified.c_str(), doc, bases, nullptr);
    if (!type) throw nb::python_error();
    m.attr(name) = nb::handle(type);
    return type;
}

// `text` with every `from` replaced by `to`.
void replace_all(std::string& text, const std::string& from, const std::string& to) {
    for (std::size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
        text.replace(at, from.size(), to);
}

// `Enum::name` (an option's C++ value) as the Python keyword `keyword='name'`.
void enum_to_keyword(std::string& text, const std::string& enum_name, const std::string& keyword) {
    const std::string prefix = enum_name + "::";
    for (std::size_t at = text.find(prefix); at != std::string::npos; at = text.find(prefix, at)) {
        std::size_t end = at + prefix.size();
        while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) || text[end] == '_')) ++end;
        const std::string value = text.substr(at + prefix.size(), end - at - prefix.size());
        text.replace(at, end - at, keyword + "='" + value + "'");
    }
}

// The library's message in the Python caller's terms: its C++ options as keywords.
std::string python_terms(std::string text) {
    replace_all(text, "set LaunchParams::overflow = IntegerOverflow::wrap", "pass overflow='wrap'");
    replace_all(text, "LaunchParams::overflow = IntegerOverflow::wrap", "overflow='wrap'");
    replace_all(text, "LaunchParams::overflow", "overflow=");
    enum_to_keyword(text, "IntegerOverflow", "overflow");
    enum_to_keyword(text, "FloatMode", "float_mode");
    enum_to_keyword(text, "Combine", "combine");
    return text;
}

// Raises `type` with `message` (in Python's terms), setting `attributes` on the exception object.
void raise(PyObject* type, const char* message, std::initializer_list<std::pair<const char*, nb::object>> attributes) {
    nb::object exc = nb::steal(PyObject_CallFunction(type, "s", python_terms(message).c_str()));
    if (!exc.is_valid()) return;  // the constructor's own error stays set
    for (const auto& [name, value] : attributes) exc.attr(name) = value;
    PyErr_SetObject(type, exc.ptr());
}

}  // namespace

void bind_errors(nb::module_& m) {
    types.error = new_type(m, "Error", "Base of every exception clreduce raises.", PyExc_Exception);
    nb::object b1 = nb::make_tuple(nb::handle(types.error), nb::handle(PyExc_ValueError));
    types.invalid_argument =
        new_type(m, "InvalidArgument", "A bad argument (also a ValueError): the message names it.", b1.ptr());
    nb::object b2 = nb::make_tuple(nb::handle(types.error), nb::handle(PyExc_TypeError));
    types.unsupported =
        new_type(m, "Unsupported",
                 "The device or the operation cannot take this input (also a TypeError): float64 without cl_khr_fp64, "
                 "float16 without cl_khr_fp16, bitwise reductions of floats, statistics of 64-bit integers.",
                 b2.ptr());
    nb::object b3 = nb::make_tuple(nb::handle(types.error), nb::handle(PyExc_OverflowError));
    types.overflow = new_type(m, "Overflow",
                              "An integer result whose exact value does not fit its type (also an OverflowError); "
                              "overflow='wrap' wraps it instead.",
                              b3.ptr());
    types.opencl_error =
        new_type(m, "OpenCLError", "An OpenCL call failed: .code (the CL error code), .call.", types.error);
    types.build_error =
        new_type(m, "BuildError", "A kernel failed to compile: .log (the build log), .options.", types.opencl_error);

    nb::register_exception_translator([](const std::exception_ptr& p, void*) {
        try {
            std::rethrow_exception(p);
        } catch (const clreduce::BuildError& e) {
            raise(types.build_error, e.what(),
                  {{"code", nb::int_(e.code())},
                   {"call", nb::str(e.call().c_str())},
                   {"log", nb::str(e.log().c_str())},
                   {"options", nb::str(e.options().c_str())}});
        } catch (const clreduce::OpenCLError& e) {
            raise(types.opencl_error, e.what(), {{"code", nb::int_(e.code())}, {"call", nb::str(e.call().c_str())}});
        } catch (const clreduce::Overflow& e) {
            raise(types.overflow, e.what(), {});
        } catch (const clreduce::InvalidArgument& e) {
            raise(types.invalid_argument, e.what(), {});
        } catch (const clreduce::Unsupported& e) {
            raise(types.unsupported, e.what(), {});
        } catch (const clreduce::Error& e) {
            raise(types.error, e.what(), {});
        }
    });
}

}  // namespace clreduce_python
