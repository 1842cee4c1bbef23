# expect(text what): fails the CLI test script unless `what` occurs in `text` (the output
# the script has just printed).
function(expect text what)
  string(FIND "${text}" "${what}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "expected '${what}' in the output above")
  endif()
endfunction()
