# `rosterrig-eN --analyze FILE` re-judges a saved file offline: exit 0 when
# every prediction held, 1 when one was refuted, 3 when one is inconclusive,
# 2 for a file it cannot read. The shipped e1 result holds everything it can
# judge, and leaves inconclusive what an upsert table's rows cannot show and
# the user's-job prediction; the shipped e2 result has a refuted prediction
# (kept, as recorded).
# Mutation: make --analyze return 0 whatever the verdict (as it once did) and
# the e2 case fails.
cmake_minimum_required(VERSION 3.25)
function(expect_exit want)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "${ARGN}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
endfunction()
expect_exit(3 ${E1} --analyze ${SOURCE}/results/e1_restart_replay.json)
expect_exit(1 ${E2} --analyze ${SOURCE}/results/e2_savepoint_restore.json)
expect_exit(1 ${E5} --analyze ${SOURCE}/results/e5_transaction_timeout.json)  # two predictions refuted
expect_exit(1 ${E4} --analyze ${SOURCE}/results/e4_maintenance.json)  # two predictions refuted
expect_exit(1 ${E6} --analyze ${SOURCE}/results/e6_poll_interval.json)  # the seed's silent livelock refuted
# Every registered experiment (rosterrig-report --list, the registry), not a
# hand list: its driver re-judges its shipped result to the verdict the file
# records. Mutation: register an experiment with another's driver and its
# --analyze exits 2 (another experiment's file).
execute_process(COMMAND ${REPORT} --root ${SOURCE} --list OUTPUT_VARIABLE listed RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR listed STREQUAL "")
  message(FATAL_ERROR "rosterrig-report --list: exit ${rc}, nothing listed")
endif()
string(REPLACE "\n" ";" lines "${listed}")
set(analyzed 0)
foreach(line IN LISTS lines)
  if(line STREQUAL "")
    continue()
  endif()
  string(REPLACE "\t" ";" fields "${line}")
  list(GET fields 1 driver)
  list(GET fields 2 result)
  separate_arguments(command UNIX_COMMAND "${driver}")
  list(POP_FRONT command exe)
  file(READ ${SOURCE}/${result} recorded)
  string(JSON verdict GET "${recorded}" verdict)
  if(verdict STREQUAL "held")
    set(want 0)
  elseif(verdict STREQUAL "refuted")
    set(want 1)
  else()
    set(want 3)
  endif()
  expect_exit(${want} ${BIN}/${exe} ${command} --analyze ${SOURCE}/${result})
  math(EXPR analyzed "${analyzed} + 1")
endforeach()
if(analyzed LESS 8)
  message(FATAL_ERROR "only ${analyzed} registered experiments were re-judged")
endif()

file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/malformed.json "{\"experiment\": \"e1_restart_replay\", ")
expect_exit(2 ${E1} --analyze ${WORK}/malformed.json)
expect_exit(2 ${E2} --analyze ${SOURCE}/results/e1_restart_replay.json)  # another experiment's file
expect_exit(2 ${E1} --no-such-flag)

# Parameters that cannot run exit 2 before anything is created (no stack is
# needed to refuse them), and the message names the flag.
# Mutation: drop the first usage check in drivers/live/runner/runner.hpp and these
# wait for a stack instead (exit 1 without one).
function(expect_refused_by exe flag)
  execute_process(COMMAND ${exe} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  string(FIND "${err}" "${flag}" at)
  if(NOT rc EQUAL 2 OR at EQUAL -1)
    message(FATAL_ERROR "${exe} ${ARGN}: exit ${rc}, expected 2 naming ${flag}\n${out}${err}")
  endif()
endfunction()
function(expect_refused flag)
  expect_refused_by(${E3} ${flag} ${ARGN})
endfunction()
expect_refused(--intervals --intervals 0)
expect_refused(--intervals --intervals 5000,-30000)
expect_refused(--intervals --intervals 5000,x)
expect_refused(--parallelisms --parallelisms 0)
expect_refused_by(${E5} --pair-timeouts --pair-timeouts 0)
expect_refused_by(${E4} --repeats --repeats 0)
expect_refused_by(${E5} --pair-timeouts --pair-timeouts 5000,-300000)

# A count of zero runs nothing: refused before a stack is asked for anything.
# Mutation: accept 0 for --repeats (as before) and e2 starts a run that writes
# a results file of inconclusive verdicts over the committed one.
expect_exit(2 ${E2} --repeats 0)
expect_exit(2 ${E1} --kills 0)

# The inputs issue 17 lists, each refused naming its flag before anything is
# created: an empty or negative feed, a seed below 0, --flag=value spelled
# with an equals sign (accepted, and still checked), a batch or latency of 0.
expect_refused_by(${SMOKE} --events --events 0)
expect_refused_by(${SMOKE} --events --events -1)
expect_refused_by(${SMOKE} --seed --seed -3)
expect_refused_by(${E2} --seed --seed -3)
expect_refused_by(${E1} --kills --kills=0)
expect_refused_by(${E6} --batch --batch 0)
expect_refused_by(${E6} --batch --batch=0)
expect_refused_by(${E6} --latency --latency 0)
expect_refused_by(${E6} --latency --latency -400)
