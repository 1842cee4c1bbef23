# expect(text what): fails the CLI test script unless `what` occurs in `text` (the output
# the script has just printed).
function(expect text what)
  string(FIND "${text}" "${what}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected '${what}' in the output above")
  endif()
endfunction()

# run_cli(name command...): runs the command, prints it with its output, fails the script on a
# non-zero exit status, and sets `out` and `err` in the caller to what it printed.
function(run_cli name)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE code OUTPUT_VARIABLE printed ERROR_VARIABLE complained)
  string(REPLACE ";" " " shown "${ARGN}")
  message("$ ${shown}\n${printed}${complained}")
  if(NOT code EQUAL 0)
    message(FATAL_ERROR "${name} failed (${code})")
  endif()
  set(out "${printed}" PARENT_SCOPE)
  set(err "${complained}" PARENT_SCOPE)
endfunction()
