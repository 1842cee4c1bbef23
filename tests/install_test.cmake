# Installs the built library into a scratch prefix, then configures, builds and runs
# examples/consumer against it through find_package(clreduce), as a user's project would (its C
# program too, consumer_c: the C API).
# CONSUMER names another consumer (consumer_mpi: find_package(clreduce COMPONENTS mpi)); RUN, a
# launcher its program runs under (mpiexec and its arguments, separated by ';').
if(NOT CONSUMER)
  set(CONSUMER consumer)
endif()
file(REMOVE_RECURSE "${WORK_DIR}")
function(run)
  execute_process(COMMAND ${ARGV} RESULT_VARIABLE code)
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "failed (${code}): ${ARGV}")
  endif()
endfunction()
run(${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} -S "${SOURCE_DIR}/examples/${CONSUMER}" -B "${WORK_DIR}/build"
    "-DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix")
run(${CMAKE_COMMAND} --build "${WORK_DIR}/build")
run(${RUN} "${WORK_DIR}/build/consumer")
if(CONSUMER STREQUAL "consumer")
  run(${RUN} "${WORK_DIR}/build/consumer_c")
endif()
