# rosterrig-report --check, run against copies of the checkout's README, results
# and figures: it passes on the copy as it is, and fails (exit 1) when a
# section's markers are deleted, a figure inside a section is edited by hand, or
# a results file is missing; it exits 2 for a root it cannot read.
# Mutation: make a missing marker a warning again (as it was before) and the
# first failing case passes, so this test fails.
cmake_minimum_required(VERSION 3.25)
foreach(v REPORT SOURCE WORK)
  if(NOT DEFINED ${v})
    message(FATAL_ERROR "report_check.cmake: -D${v}=... is required")
  endif()
endforeach()

function(fresh_copy)
  file(REMOVE_RECURSE ${WORK})
  file(MAKE_DIRECTORY ${WORK}/docs)
  file(COPY ${SOURCE}/README.md DESTINATION ${WORK})
  file(COPY ${SOURCE}/results DESTINATION ${WORK})
  file(GLOB svgs ${SOURCE}/docs/*.svg)
  file(COPY ${svgs} DESTINATION ${WORK}/docs)
endfunction()

function(expect_check want what)
  execute_process(COMMAND ${REPORT} --root ${WORK} --check RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "${what}: rosterrig-report --check exited ${rc}, expected ${want}; stderr: ${err}")
  endif()
  message(STATUS "${what}: exit ${rc} as expected ${err}")
  set(err "${err}" PARENT_SCOPE)
endfunction()

fresh_copy()
expect_check(0 "the checkout as it is")

fresh_copy()
file(READ ${WORK}/README.md doc)
string(REGEX REPLACE "<!-- BEGIN e1 -->.*<!-- END e1 -->" "" doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(1 "the e1 section deleted, markers and all")

fresh_copy()
file(READ ${WORK}/README.md doc)
string(REPLACE "| 12,000 | 0 | 10,003 |" "| 12,000 | 0 | 10,004 |" doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(1 "one figure in the e1 table edited")

# The findings at the top of the README are generated too: a verdict or a count
# changed by hand fails the check.
fresh_copy()
file(READ ${WORK}/README.md doc)
string(REGEX REPLACE "(<!-- BEGIN findings -->[^|]*)[0-9]+ held" "\\199 held" doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(1 "the findings' held count edited")

fresh_copy()
file(READ ${WORK}/README.md doc)
string(REGEX REPLACE "<!-- BEGIN findings -->.*<!-- END findings -->" "" doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(1 "the findings section deleted, markers and all")

fresh_copy()
file(WRITE ${WORK}/docs/e2_timeline.svg "<svg/>")
expect_check(1 "the e2 figure replaced")

# A registered experiment whose results file is missing cannot be checked.
# Mutation: let a missing results file leave its section "as it is" under
# --check (as it did before) and this case passes with exit 0, so the test fails.
fresh_copy()
file(REMOVE ${WORK}/results/e3_file_size.json)
expect_check(1 "results/e3_file_size.json missing")

# A figure typed into a prose paragraph by hand, which no result yields, fails
# the check and is named with its line; a figure a result yields (e1's 12,000
# events) passes.
# Mutation: drop the check_prose_figures call from report.cpp's --check and
# the first case exits 0, so this test fails.
fresh_copy()
file(READ ${WORK}/README.md doc)
string(FIND "${doc}" "is reported as unattributed." at)
if(at EQUAL -1)
  message(FATAL_ERROR "report_check.cmake: the e1 prose this test edits is gone; pick another paragraph")
endif()
string(REPLACE "is reported as unattributed." "is reported as unattributed. One kill lost 12,345 records." doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(1 "a figure with no source typed into e1's prose")
string(FIND "${err}" "12,345 records" named)
if(named EQUAL -1)
  message(FATAL_ERROR "the figure typed into prose: --check failed without naming it; stderr: ${err}")
endif()
fresh_copy()
file(READ ${WORK}/README.md doc)
string(REPLACE "is reported as unattributed." "is reported as unattributed. Each run fed 12,000 events." doc "${doc}")
file(WRITE ${WORK}/README.md "${doc}")
expect_check(0 "a figure the results yield typed into e1's prose")

# An unreadable root is bad input.
execute_process(COMMAND ${REPORT} --root ${WORK}/no-such-dir --check RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "a root that does not exist: exit ${rc}, expected 2; stderr: ${err}")
endif()

# A quick run copied into results/ is refused, not published into the README.
# Mutation: drop the quick check in registry.hpp's render and the report
# renders the quick run (exit 0 without --check), so this fails.
fresh_copy()
file(READ ${WORK}/results/e2_savepoint_restore.json doc)
string(REPLACE "\"quick\": false" "\"quick\": true" doc "${doc}")
file(WRITE ${WORK}/results/e2_savepoint_restore.json "${doc}")
execute_process(COMMAND ${REPORT} --root ${WORK} RESULT_VARIABLE rc ERROR_VARIABLE err)
string(FIND "${err}" "--quick run" at)
if(rc EQUAL 0 OR at EQUAL -1)
  message(FATAL_ERROR "a quick run in results/: exit ${rc}, expected a refusal naming it; stderr: ${err}")
endif()
