# clreduce-perf segments on small shapes with a chosen team and medium teams, into a scratch
# cache folder: its exit status (every segment's sum checked), a team row's and a medium row's
# plan, and batches refused by the medium teams (rows skipped with the reason). Run by CTest as
# perf_segments_mappings_<type>.
file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")
set(args segments -t ${TYPE} -s 64x100 -s uniform:5000:40 -s powerlaw:20000 -s rows:300x70 -s columns:300x70 -r 1
         --team 4 --medium 8)
include(${CMAKE_CURRENT_LIST_DIR}/expect_in_output.cmake)
run_cli("clreduce-perf segments" ${CMAKE_COMMAND} -E env "CLREDUCE_CACHE_DIR=${WORK_DIR}/cache" "${PERF}" ${args})
expect("${out}" "team=4 (")
expect("${err}" "columns:300x70 team 4")
expect("${out}" "medium=8 (longer segments: teams of")
expect("${err}" "64x100 medium 8")
expect("${err}" "skipped: experimental::SegmentOptions::medium takes listed segments")
