# `rosterrig-eN --analyze FILE` re-judges a saved file offline: exit 0 when
# every prediction held, 1 when one was refuted, 3 when one is inconclusive,
# 2 for a file it cannot read. The shipped e1 result holds everything; the
# shipped e2 result has a refuted prediction (kept, as recorded).
# Mutation: make --analyze return 0 whatever the verdict (as it once did) and
# the e2 case fails.
cmake_minimum_required(VERSION 3.25)
function(expect_exit want)
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL want)
    message(FATAL_ERROR "${ARGN}: exit ${rc}, expected ${want}\n${out}${err}")
  endif()
endfunction()
expect_exit(0 ${E1} --analyze ${SOURCE}/results/e1_restart_replay.json)
expect_exit(1 ${E2} --analyze ${SOURCE}/results/e2_savepoint_restore.json)
file(MAKE_DIRECTORY ${WORK})
file(WRITE ${WORK}/malformed.json "{\"experiment\": \"e1_restart_replay\", ")
expect_exit(2 ${E1} --analyze ${WORK}/malformed.json)
expect_exit(2 ${E2} --analyze ${SOURCE}/results/e1_restart_replay.json)  # another experiment's file
expect_exit(2 ${E1} --no-such-flag)
