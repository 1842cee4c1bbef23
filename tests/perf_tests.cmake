# clreduce-perf's own tests: the plot's axis maths and compare's result check and report (in
# clreduce-tests, tags [plot] and [compare]), and sweep (uint32, int8, float64) and compare
# (int32, float32, int8) run on the default device with tiny sizes, writing CSV/JSON/SVG into the
# build folder, then checked by check_perf_outputs.cmake (JSON structure, every result marked
# correct, the read-only kernel's rows, CSV rows and columns, SVG well-formed with its curves;
# xmllint checks the XML).
if(NOT TARGET clreduce-perf)
  return()
endif()
target_sources(clreduce-tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/test_svg_plot.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/test_result_check.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/test_compare_report.cpp)
target_link_libraries(clreduce-tests PRIVATE clreduce_perf_support)

find_program(CLREDUCE_XMLLINT xmllint DOC "xmllint (Debian: libxml2-utils), checks the perf tool's SVG")
if(NOT CLREDUCE_XMLLINT)
  message(WARNING "clreduce: xmllint not found (libxml2-utils); the perf output tests are not registered")
  return()
endif()
set(out ${CMAKE_CURRENT_BINARY_DIR}/perf_outputs)
file(MAKE_DIRECTORY ${out})
set(check ${CMAKE_COMMAND} -DXMLLINT=${CLREDUCE_XMLLINT} -DCLBLAST=${CLREDUCE_CLBLAST_LIBRARY})

# The runs keep their caches in the build folder, never the user's.
set(perf_environment "CLREDUCE_CACHE_DIR=${out}/cache")
# uint32 (the default), int8 (whole-range data, int64 sums) and float64.
foreach(type uint32 int8 float64)
  add_test(NAME perf_sweep_run_${type}
    COMMAND clreduce-perf sweep -t ${type} -n 1024 -n 4096 -r 2 --max-times 16
            --csv ${out}/sweep-${type}.csv --json ${out}/sweep-${type}.json --svg ${out}/sweep-${type}.svg)
  add_test(NAME perf_sweep_outputs_${type}
    COMMAND ${check} -DKIND=sweep -DTYPE=${type} -DPREFIX=${out}/sweep-${type}
            -P ${CMAKE_CURRENT_LIST_DIR}/check_perf_outputs.cmake)
  set_tests_properties(perf_sweep_run_${type} PROPERTIES FIXTURES_SETUP perf_sweep_${type} TIMEOUT 300
                       ENVIRONMENT "${perf_environment}")
  set_tests_properties(perf_sweep_outputs_${type} PROPERTIES FIXTURES_REQUIRED perf_sweep_${type})
endforeach()

# 4095: a byte count that is not a multiple of 16 for the read-only kernel (int8).
foreach(type int32 float32 int8)
  add_test(NAME perf_compare_run_${type}
    COMMAND clreduce-perf compare -t ${type} -n 1024 -n 4095 -n 4096 -r 2
            --csv ${out}/compare-${type}.csv --json ${out}/compare-${type}.json --svg ${out}/compare-${type}.svg)
  add_test(NAME perf_compare_outputs_${type}
    COMMAND ${check} -DKIND=compare -DTYPE=${type} -DPREFIX=${out}/compare-${type}
            -P ${CMAKE_CURRENT_LIST_DIR}/check_perf_outputs.cmake)
  set_tests_properties(perf_compare_run_${type} PROPERTIES FIXTURES_SETUP perf_compare_${type} TIMEOUT 300
                       ENVIRONMENT "${perf_environment}")
  set_tests_properties(perf_compare_outputs_${type} PROPERTIES FIXTURES_REQUIRED perf_compare_${type})
endforeach()
