# Doc code is cut from compiled code: every ```cpp block of the docs must appear, line for line,
# in a source file under examples/ or tests/ (files that are built and run), so that the docs
# cannot show code that no longer compiles.
#
#   cmake -DROOT=<repository root> -P tests/docs/check_snippets.cmake
#
# Optional:
#   -DDOCS=<file;file...>     the Markdown files to check (default: README.md and docs/*.md under
#                             ROOT; relative paths are taken from ROOT)
#   -DSOURCES=<dir;dir...>    the folders whose C++ files count as compiled code (default:
#                             examples, tests, mpi and opencv under ROOT)
#
# A block matches when its lines, each stripped of leading and trailing white space and with
# blank lines dropped, appear as one contiguous run of a source file's lines stripped the same
# way. A block may opt out only with an HTML comment on the last non-blank line before it:
#   <!-- snippet: not compiled (the reason) -->
# The reason is required. An opt-out comment that is not followed by a C++ block is an error too.
# Exit status: 0 when every block matches or opts out; an error naming each block otherwise.

cmake_minimum_required(VERSION 3.16)

if(NOT DEFINED ROOT)
  message(FATAL_ERROR "check_snippets: pass -DROOT=<repository root>")
endif()
get_filename_component(ROOT "${ROOT}" ABSOLUTE)

if(NOT DEFINED DOCS)
  set(DOCS "${ROOT}/README.md")
  file(GLOB doc_pages "${ROOT}/docs/*.md")
  list(SORT doc_pages)
  list(APPEND DOCS ${doc_pages})
endif()
if(NOT DEFINED SOURCES)
  set(SOURCES "${ROOT}/examples" "${ROOT}/tests" "${ROOT}/mpi" "${ROOT}/opencv")
endif()

# Text with every line stripped of surrounding white space and blank lines dropped, between
# newlines: "\nline 1\nline 2\n". A block is found in a file by a plain substring search.
function(normalize text out)
  string(REGEX REPLACE "[ \t\r]*\n[ \t\r\n]*" "\n" text "\n${text}\n")
  string(REGEX REPLACE "^\n[ \t\r]*" "\n" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

# The compiled code: C++ files of the source folders, each normalized once.
set(source_files "")
foreach(dir IN LISTS SOURCES)
  if(NOT IS_ABSOLUTE "${dir}")
    set(dir "${ROOT}/${dir}")
  endif()
  if(NOT IS_DIRECTORY "${dir}")
    message(FATAL_ERROR "check_snippets: source folder ${dir} does not exist")
  endif()
  file(GLOB_RECURSE found LIST_DIRECTORIES false
       "${dir}/*.cpp" "${dir}/*.hpp" "${dir}/*.h" "${dir}/*.cu" "${dir}/*.cc")
  list(APPEND source_files ${found})
endforeach()
list(SORT source_files)
set(source_count 0)
foreach(file IN LISTS source_files)
  # The checker's own fixtures are test data, not compiled code.
  file(RELATIVE_PATH relative "${ROOT}" "${file}")
  if(relative MATCHES "^tests/docs/fixtures/")
    continue()
  endif()
  file(READ "${file}" content)
  normalize("${content}" content)
  set(source_${source_count} "${content}")
  set(source_name_${source_count} "${file}")
  math(EXPR source_count "${source_count} + 1")
endforeach()
if(source_count EQUAL 0)
  message(FATAL_ERROR "check_snippets: no C++ files under ${SOURCES}")
endif()

# Markdown is read line by line. CMake lists split on ';' and treat '[' ']' specially, so those
# characters (and '\') are replaced by placeholders while splitting and put back afterwards.
set(semicolon "@SNIPPET_SEMICOLON@")
set(open_bracket "@SNIPPET_OPEN_BRACKET@")
set(close_bracket "@SNIPPET_CLOSE_BRACKET@")
set(backslash "@SNIPPET_BACKSLASH@")
function(decode text out)
  string(REPLACE "${semicolon}" ";" text "${text}")
  string(REPLACE "${open_bracket}" "[" text "${text}")
  string(REPLACE "${close_bracket}" "]" text "${text}")
  string(REPLACE "${backslash}" "\\" text "${text}")
  set(${out} "${text}" PARENT_SCOPE)
endfunction()

set(blocks 0)
set(compiled 0)
set(opted_out 0)
set(problems "")
foreach(doc IN LISTS DOCS)
  if(NOT IS_ABSOLUTE "${doc}")
    set(doc "${ROOT}/${doc}")
  endif()
  if(NOT EXISTS "${doc}")
    message(FATAL_ERROR "check_snippets: ${doc} does not exist")
  endif()
  file(RELATIVE_PATH doc_name "${ROOT}" "${doc}")
  file(READ "${doc}" text)
  string(REPLACE "\\" "${backslash}" text "${text}")
  string(REPLACE ";" "${semicolon}" text "${text}")
  string(REPLACE "[" "${open_bracket}" text "${text}")
  string(REPLACE "]" "${close_bracket}" text "${text}")
  string(REPLACE "\n" ";" lines "${text}")

  set(line_number 0)
  set(in_block FALSE)       # inside a fence
  set(block_is_cpp FALSE)   # ... of C++
  set(block_start 0)
  set(block_text "")
  set(last_nonblank "")     # the last non-blank line outside fences
  set(last_nonblank_line 0)
  set(pending_opt_out FALSE)
  foreach(line IN LISTS lines)
    math(EXPR line_number "${line_number} + 1")
    string(STRIP "${line}" stripped)
    if(in_block)
      if(stripped MATCHES "^```")
        set(in_block FALSE)
        if(block_is_cpp)
          math(EXPR blocks "${blocks} + 1")
          decode("${block_text}" block_text)
          normalize("${block_text}" wanted)
          if(wanted STREQUAL "\n" OR wanted STREQUAL "\n\n")
            string(APPEND problems "\n  ${doc_name}:${block_start}: empty C++ block")
          elseif(block_opted_out)
            math(EXPR opted_out "${opted_out} + 1")
          else()
            set(found "")
            set(k 0)
            while(k LESS source_count)
              string(FIND "${source_${k}}" "${wanted}" at)
              if(NOT at EQUAL -1)
                set(found "${source_name_${k}}")
                break()
              endif()
              math(EXPR k "${k} + 1")
            endwhile()
            if(found)
              math(EXPR compiled "${compiled} + 1")
            else()
              string(APPEND problems "\n  ${doc_name}:${block_start}: this C++ block is not a contiguous run of lines "
                                     "of any C++ file under examples/ or tests/ (cut it from compiled code, or opt "
                                     "out with <!-- snippet: not compiled (reason) --> right before it)")
            endif()
          endif()
        endif()
      else()
        string(APPEND block_text "${line}\n")
      endif()
      continue()
    endif()

    if(stripped MATCHES "^```")
      set(in_block TRUE)
      set(block_start ${line_number})
      set(block_text "")
      string(TOLOWER "${stripped}" fence)
      string(REGEX REPLACE "^```[ \t]*" "" language "${fence}")
      string(REGEX REPLACE "[ \t{].*$" "" language "${language}")
      if(language STREQUAL "cpp" OR language STREQUAL "c++" OR language STREQUAL "cxx")
        set(block_is_cpp TRUE)
        set(block_opted_out ${pending_opt_out})
      else()
        set(block_is_cpp FALSE)
        if(pending_opt_out)
          string(APPEND problems "\n  ${doc_name}:${pending_opt_out_line}: an opt-out comment before a block that is not C++")
        endif()
      endif()
      set(pending_opt_out FALSE)
      continue()
    endif()

    if(stripped STREQUAL "")
      continue()
    endif()
    if(pending_opt_out)
      string(APPEND problems "\n  ${doc_name}:${pending_opt_out_line}: an opt-out comment not right before a C++ block")
      set(pending_opt_out FALSE)
    endif()
    if(stripped MATCHES "^<!--[ \t]*snippet:")
      decode("${stripped}" comment)
      if(comment MATCHES "^<!-- snippet: not compiled \\(([^)]*[^ \t)][^)]*)\\) -->$")
        set(pending_opt_out TRUE)
        set(pending_opt_out_line ${line_number})
      else()
        string(APPEND problems "\n  ${doc_name}:${line_number}: a snippet comment must read "
                               "<!-- snippet: not compiled (reason) --> with a reason")
      endif()
    endif()
  endforeach()
  if(in_block)
    string(APPEND problems "\n  ${doc_name}:${block_start}: a code block that is never closed")
  endif()
  if(pending_opt_out)
    string(APPEND problems "\n  ${doc_name}:${pending_opt_out_line}: an opt-out comment at the end of the file")
  endif()
endforeach()

list(LENGTH DOCS doc_count)
message(STATUS "check_snippets: ${doc_count} documents, ${blocks} C++ blocks: ${compiled} found in "
               "${source_count} compiled files, ${opted_out} opted out")
if(NOT problems STREQUAL "")
  message(FATAL_ERROR "check_snippets: doc code that is not cut from compiled code:${problems}")
endif()
