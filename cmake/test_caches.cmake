# clreduce_tests_keep_user_caches(): called at the end of each CMakeLists.txt that adds tests.
# The tests never touch the user's disk caches: a test of this folder that names no cache folder
# of its own compiles its programs in memory only (CLREDUCE_CACHE_DIR=off; PoCL's own cache
# still serves a program another test built). tests/device/main.cpp does the same for the
# device test cases CTest discovers.
function(clreduce_tests_keep_user_caches)
  get_property(folder_tests DIRECTORY PROPERTY TESTS)
  foreach(t ${folder_tests})
    get_test_property(${t} ENVIRONMENT env)
    if(NOT env MATCHES "CLREDUCE_CACHE_DIR=")
      set_property(TEST ${t} APPEND PROPERTY ENVIRONMENT "CLREDUCE_CACHE_DIR=off")
    endif()
  endforeach()
endfunction()
