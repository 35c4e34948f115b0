# Sourced by the fault commands: the local stack's ports and state, and which
# TaskManager a data port belongs to (the port Flink reports for the job's tasks).
here="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
. "$here/ports.env"
state="${ROSTERRIG_STATE:-$here/../.stack}"

# taskmanager_of_port PORT: prints the TaskManager's process name, or fails naming the port.
taskmanager_of_port() {
  case "$1" in
    "$RR_FLINK_TM_DATA_PORT") echo flink-taskmanager ;;
    "$RR_FLINK_TM2_DATA_PORT") echo flink-taskmanager-2 ;;
    "$RR_FLINK_TM3_DATA_PORT") echo flink-taskmanager-3 ;;
    *) echo "$(basename "$0"): no TaskManager of the local stack has data port $1" >&2; return 1 ;;
  esac
}
