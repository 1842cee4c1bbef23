# clreduce-perf's own tests: the plot's axis maths and compare's result check (in clreduce-tests,
# tags [plot] and [compare]), and sweep and
# compare run on the default device with tiny sizes, writing CSV/JSON/SVG into the build folder,
# then checked by check_perf_outputs.cmake (JSON structure, every result marked correct, CSV rows,
# SVG well-formed with its curves; xmllint checks the XML).
if(NOT TARGET clreduce-perf)
  return()
endif()
target_sources(clreduce-tests PRIVATE ${CMAKE_CURRENT_LIST_DIR}/test_svg_plot.cpp
                                     ${CMAKE_CURRENT_LIST_DIR}/test_result_check.cpp)
target_link_libraries(clreduce-tests PRIVATE clreduce_perf_common)

find_program(CLREDUCE_XMLLINT xmllint DOC "xmllint (Debian: libxml2-utils), checks the perf tool's SVG")
if(NOT CLREDUCE_XMLLINT)
  message(WARNING "clreduce: xmllint not found (libxml2-utils); the perf output tests are not registered")
  return()
endif()
set(out ${CMAKE_CURRENT_BINARY_DIR}/perf_outputs)
file(MAKE_DIRECTORY ${out})
set(check ${CMAKE_COMMAND} -DXMLLINT=${CLREDUCE_XMLLINT} -DCLBLAST=${CLREDUCE_CLBLAST_LIBRARY})

add_test(NAME perf_sweep_run
  COMMAND clreduce-perf sweep -t uint32 -n 1024 -n 4096 -r 2 --max-times 16
          --csv ${out}/sweep.csv --json ${out}/sweep.json --svg ${out}/sweep.svg)
add_test(NAME perf_sweep_outputs
  COMMAND ${check} -DKIND=sweep -DPREFIX=${out}/sweep -P ${CMAKE_CURRENT_LIST_DIR}/check_perf_outputs.cmake)
# The runs keep their caches in the build folder, never the user's.
set(perf_environment "CLREDUCE_CACHE_DIR=${out}/cache")
set_tests_properties(perf_sweep_run PROPERTIES FIXTURES_SETUP perf_sweep TIMEOUT 300 ENVIRONMENT "${perf_environment}")
set_tests_properties(perf_sweep_outputs PROPERTIES FIXTURES_REQUIRED perf_sweep)

foreach(type int32 float32)
  add_test(NAME perf_compare_run_${type}
    COMMAND clreduce-perf compare -t ${type} -n 1024 -n 2048 -n 4096 -r 2
            --csv ${out}/compare-${type}.csv --json ${out}/compare-${type}.json --svg ${out}/compare-${type}.svg)
  add_test(NAME perf_compare_outputs_${type}
    COMMAND ${check} -DKIND=compare -DTYPE=${type} -DPREFIX=${out}/compare-${type}
            -P ${CMAKE_CURRENT_LIST_DIR}/check_perf_outputs.cmake)
  set_tests_properties(perf_compare_run_${type} PROPERTIES FIXTURES_SETUP perf_compare_${type} TIMEOUT 300
                       ENVIRONMENT "${perf_environment}")
  set_tests_properties(perf_compare_outputs_${type} PROPERTIES FIXTURES_REQUIRED perf_compare_${type})
endforeach()
