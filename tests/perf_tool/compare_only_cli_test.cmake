# clreduce-perf compare --only: the named competitors run (their rows and the SVG's curves), the
# others do not, and a name that is not a competitor is refused with the list; `host statistics`
# gives a correct row and its column of the other operations' table. Run by CTest as
# perf_compare_only.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
include(${CMAKE_CURRENT_LIST_DIR}/expect_in_output.cmake)
set(ENV{CLREDUCE_CACHE_DIR} "${WORK_DIR}/cache")

run_cli(compare "${PERF}" compare -t float32 -n 65536 -r 2 --only clreduce-host "host read" "host statistics"
        --svg "${WORK_DIR}/only.svg")
expect("${out}" "clreduce-host default LaunchParams")
expect("${out}" "host read one pass over the host data")
expect("${out}" "host statistics the arithmetic of statistics alone")
string(REGEX MATCH "\n +host statistics +[0-9.]+ [^\n]* correct " row "${out}")
if(NOT row)
  message(FATAL_ERROR "no correct row of host statistics in the output above")
endif()
string(REGEX MATCH "host data, other operations[^\n]*\n +n +host statistics\n +2\\^16 +[0-9.]+\n" table "${out}")
if(NOT table)
  message(FATAL_ERROR "no column of host statistics in the other operations' table above")
endif()
foreach(absent "naive" "cv::Mat" "clreduce-host-device" "clreduce+1")
  string(FIND "${out}" "${absent}" at)
  if(NOT at EQUAL -1)
    message(FATAL_ERROR "compare --only clreduce-host \"host read\" ran or listed ${absent}")
  endif()
endforeach()
file(READ "${WORK_DIR}/only.svg" svg)
expect("${svg}" "clreduce-host (call)")
expect("${svg}" "host read (call)")

execute_process(COMMAND "${PERF}" compare -t float32 -n 65536 -r 2 --only clreduce-host "host reed"
                RESULT_VARIABLE code OUTPUT_VARIABLE printed ERROR_VARIABLE complained)
message("$ clreduce-perf compare ... --only clreduce-host \"host reed\"\n${printed}${complained}")
if(NOT code EQUAL 2)
  message(FATAL_ERROR "an unknown competitor's name gave exit status ${code}, not 2")
endif()
expect("${complained}" "compare --only \"host reed\": no such competitor; the competitors are \"clreduce\", ")
