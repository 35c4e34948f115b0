# The contract of an experiment definition, as the compiler enforces it:
# contract/probe_definition.cpp compiles as written, and each mistake
# (PROBE=n) fails to compile with an error that names it.
#   1: a misspelt optional hook (.resumible)         -> "no non-static data member named 'resumible'"
#   2: a hook declared beside `hooks`, not in it     -> "belongs in the definition's `hooks`"
#   3: `hooks` itself misspelt (hook)                -> experiment_definition
#   4: a required member missing (results_file)      -> experiment_definition
# Mutation: delete the static_assert on hooks declared as members in
# include/rosterrig/experiment/experiment_traits.hpp: case 2 compiles and this fails.
# Usage: cmake -DCXX=... -DSOURCE=... -DINCLUDES="dir;dir" -P contract_compile_fail.cmake
set(flags -std=c++20 -fsyntax-only -DPROBE=0)
foreach(dir IN LISTS INCLUDES)
  list(APPEND flags -I${dir})
endforeach()
set(probe ${SOURCE}/test/unit/contract/probe_definition.cpp)

execute_process(COMMAND ${CXX} ${flags} ${probe} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "the probe definition, written right, does not compile:\n${err}")
endif()

set(expect_1 "no non-static data member named [^ ]*resumible")
set(expect_2 "belongs in the definition's `hooks`")
set(expect_3 "experiment_definition")
set(expect_4 "experiment_definition")
foreach(n 1 2 3 4)
  list(TRANSFORM flags REPLACE "^-DPROBE=.*" "-DPROBE=${n}")
  execute_process(COMMAND ${CXX} ${flags} ${probe} RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(rc EQUAL 0)
    message(FATAL_ERROR "mistake ${n} compiled: the contract does not catch it")
  endif()
  if(NOT err MATCHES "${expect_${n}}")
    message(FATAL_ERROR "mistake ${n} failed to compile, but not naming '${expect_${n}}':\n${err}")
  endif()
  message(STATUS "mistake ${n}: refused, naming '${expect_${n}}'")
endforeach()
