# Kafka 4.3.1, one KRaft node (broker + controller). Sourced after compose/lib.sh.
# Defines kafka_fetch, kafka_up, kafka_down, kafka_health, kafka_version, kafka_tool,
# kafka_member.

KAFKA_HEAP="${RR_KAFKA_HEAP:-768m}"
KAFKA_CONF_DIR="$RR_STATE/conf/kafka"
KAFKA_LOG_DIR="$RR_DATA/kafka"

kafka_cp() { echo "$RR_LIBS/kafka/*"; }

kafka_fetch() { rr_resolve kafka; }

# Config written on every start, so an edit here applies on the next kafka_up.
_kafka_write_config() {
  mkdir -p "$KAFKA_CONF_DIR" "$KAFKA_LOG_DIR"
  cat > "$KAFKA_CONF_DIR/server.properties" <<EOF
# Written by compose/kafka/component.sh; edits here are overwritten.
process.roles=broker,controller
node.id=1
controller.quorum.bootstrap.servers=$RR_HOST:$RR_KAFKA_CONTROLLER_PORT
listeners=PLAINTEXT://$RR_HOST:$RR_KAFKA_PORT,SASL://$RR_HOST:$RR_KAFKA_SASL_PORT,CONTROLLER://$RR_HOST:$RR_KAFKA_CONTROLLER_PORT
advertised.listeners=PLAINTEXT://$RR_HOST:$RR_KAFKA_PORT,SASL://$RR_HOST:$RR_KAFKA_SASL_PORT,CONTROLLER://$RR_HOST:$RR_KAFKA_CONTROLLER_PORT
controller.listener.names=CONTROLLER
inter.broker.listener.name=PLAINTEXT
listener.security.protocol.map=CONTROLLER:PLAINTEXT,PLAINTEXT:PLAINTEXT,SASL:SASL_PLAINTEXT
# The SASL listener: PLAIN, one user from ports.env (docs/STACK.md uses it).
sasl.enabled.mechanisms=PLAIN
listener.name.sasl.plain.sasl.jaas.config=org.apache.kafka.common.security.plain.PlainLoginModule required user_$RR_KAFKA_SASL_USER="$RR_KAFKA_SASL_PASSWORD";
log.dirs=$KAFKA_LOG_DIR
num.partitions=1
default.replication.factor=1
offsets.topic.replication.factor=1
transaction.state.log.replication.factor=1
transaction.state.log.min.isr=1
share.coordinator.state.topic.replication.factor=1
share.coordinator.state.topic.min.isr=1
group.initial.rebalance.delay.ms=0
# Flink's KafkaSink uses a 1 h transaction timeout by default; the broker's default cap is 15 min.
transaction.max.timeout.ms=3600000
auto.create.topics.enable=false
EOF
  cat > "$KAFKA_CONF_DIR/log4j2.properties" <<'EOF'
status = warn
appender.out.type = Console
appender.out.name = OUT
appender.out.layout.type = PatternLayout
appender.out.layout.pattern = [%d] %p %m (%c)%n
rootLogger.level = INFO
rootLogger.appenderRef.out.ref = OUT
logger.state.name = state.change.logger
logger.state.level = WARN
EOF
  _kafka_write_stderr_log_config log4j2-tools.properties '[%d] %p %m (%c)%n'
  _kafka_write_member_log_config
}

# A log4j2 config printing WARN and above to stderr with the given layout:
# _kafka_write_stderr_log_config <file name> <pattern> [extra layout line].
# Written to a temporary file and renamed, so JVMs starting together never read
# a half-written file.
_kafka_write_stderr_log_config() {
  local f="$KAFKA_CONF_DIR/$1"
  mkdir -p "$KAFKA_CONF_DIR"
  {
    echo "status = warn"
    echo "appender.err.type = Console"
    echo "appender.err.name = ERR"
    echo "appender.err.target = SYSTEM_ERR"
    echo "appender.err.layout.type = PatternLayout"
    [ -z "${3:-}" ] || echo "$3"
    echo "appender.err.layout.pattern = $2"
    echo "rootLogger.level = WARN"
    echo "rootLogger.appenderRef.err.ref = ERR"
  } > "$f.$$"
  mv -f "$f.$$" "$f"
}

# kafka_member's log config: the client's WARN and ERROR lines on stderr, exactly one
# line per event (CR/LF in the message escaped, an exception reduced to its first
# line), with the logger name, so a caller can count them.
_kafka_write_member_log_config() {
  _kafka_write_stderr_log_config log4j2-member.properties \
    '[%d] %p %enc{%m}{CRLF} (%c)%notEmpty{ [%enc{%ex{short}}{CRLF}]}%n' \
    'appender.err.layout.alwaysWriteExceptions = false'
}

# Real protocol probe without a JVM: send an ApiVersions v0 request
# (api_key 18, correlation id 0x2a, null client id) and expect our correlation id
# back with error_code 0.
kafka_health() {
  local port="${1:-$RR_KAFKA_PORT}" reply
  reply="$(
    exec 3<>"/dev/tcp/$RR_HOST/$port" || exit 1
    printf '\x00\x00\x00\x0a\x00\x12\x00\x00\x00\x00\x00\x2a\xff\xff' >&3
    timeout 3 head -c 10 <&3 | od -An -tx1 | tr -d ' \n'
  )" 2>/dev/null || return 1
  # 4 bytes size, correlation id 0000002a, error_code 0000
  [ "${reply:8:12}" = "0000002a0000" ]
}

kafka_up() {
  if rr_running kafka && kafka_health; then
    rr_log "kafka: already running on $RR_HOST:$RR_KAFKA_PORT (log $RR_LOGS/kafka.log)"
    return 0
  fi
  rr_running kafka && rr_stop kafka   # alive but unhealthy: restart our own pid
  [ -f "$RR_LIBS/kafka/kafka_2.13-4.3.1.jar" ] || kafka_fetch
  if rr_port_open "$RR_KAFKA_PORT" || rr_port_open "$RR_KAFKA_SASL_PORT" || rr_port_open "$RR_KAFKA_CONTROLLER_PORT"; then
    rr_die "kafka: port $RR_KAFKA_PORT, $RR_KAFKA_SASL_PORT or $RR_KAFKA_CONTROLLER_PORT is taken by a process that is not ours"
  fi
  _kafka_write_config
  local java="$RR_JAVA17/bin/java"
  if [ ! -f "$KAFKA_LOG_DIR/meta.properties" ]; then
    local cid
    cid="$("$java" -Xmx128m -cp "$(kafka_cp)" kafka.tools.StorageTool random-uuid 2>/dev/null | tail -1)" \
      || rr_die "kafka: StorageTool random-uuid failed"
    rr_log "kafka: formatting $KAFKA_LOG_DIR (cluster id $cid, standalone controller)"
    "$java" -Xmx256m -Dlog4j2.configurationFile="$KAFKA_CONF_DIR/log4j2-tools.properties" \
      -cp "$(kafka_cp)" kafka.tools.StorageTool format --standalone \
      -t "$cid" -c "$KAFKA_CONF_DIR/server.properties" >>"$RR_LOGS/kafka-format.log" 2>&1 \
      || rr_die "kafka: storage format failed; read $RR_LOGS/kafka-format.log"
  fi
  rr_log "kafka: starting (heap $KAFKA_HEAP)"
  rr_start kafka "$java" -Xms"$KAFKA_HEAP" -Xmx"$KAFKA_HEAP" -server -XX:+UseG1GC \
    -XX:MaxGCPauseMillis=20 -XX:InitiatingHeapOccupancyPercent=35 \
    -XX:+ExplicitGCInvokesConcurrent -XX:MaxInlineLevel=15 -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_CONF_DIR/log4j2.properties" \
    -Dkafka.logs.dir="$RR_LOGS" \
    -cp "$(kafka_cp)" kafka.Kafka "$KAFKA_CONF_DIR/server.properties"
  RR_WAIT_PORT="$RR_KAFKA_PORT" rr_wait kafka 90 kafka_health
  # A group query through the broker's own client creates __consumer_offsets and
  # waits until it is loaded: librdkafka 2.0.2 crashed (rdk:main) when its first
  # group-offsets query met a new broker still creating that topic.
  kafka_tool ConsumerGroupCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" --describe \
    --group rosterrig-coordinator-probe --timeout 60000 >>"$RR_LOGS/kafka-coordinator-probe.log" 2>&1 || true
  rr_log "kafka: listening on $RR_HOST:$RR_KAFKA_PORT (SASL/PLAIN on $RR_KAFKA_SASL_PORT, controller $RR_HOST:$RR_KAFKA_CONTROLLER_PORT), log $RR_LOGS/kafka.log"
}

kafka_down() { rr_stop kafka; }

# kafka_tool <MainClass> args...: run a Kafka CLI tool class against our jars with
# a 256m heap. Short names are accepted: TopicCommand, ConsumerGroupCommand,
# TransactionsCommand, ConsoleConsumer, ConsoleProducer, ConfigCommand,
# BrokerApiVersionsCommand, FeatureCommand, MetadataQuorumCommand, GetOffsetShell.
kafka_tool() {
  local cls="$1"; shift
  case "$cls" in
    *.*) ;;
    ConsumerGroupCommand) cls=org.apache.kafka.tools.consumer.group.ConsumerGroupCommand ;;
    ConsoleConsumer) cls=org.apache.kafka.tools.consumer.ConsoleConsumer ;;
    ConsoleShareConsumer) cls=org.apache.kafka.tools.consumer.ConsoleShareConsumer ;;
    ConfigCommand) cls=kafka.admin.ConfigCommand ;;
    StorageTool) cls=kafka.tools.StorageTool ;;
    *) cls="org.apache.kafka.tools.$cls" ;;
  esac
  [ -f "$KAFKA_CONF_DIR/log4j2-tools.properties" ] || _kafka_write_config
  "$RR_JAVA17/bin/java" -Xmx256m -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_CONF_DIR/log4j2-tools.properties" \
    -cp "$(kafka_cp)" "$cls" "$@"
}

# kafka_member args...: one consumer-group member of the poll-interval trap experiment
# (compose/kafka/PollTrapMember.java, run in Java's source-file mode on our jars); its
# events go to --log as JSON lines, the client's WARN/ERROR lines to stderr.
kafka_member() {
  _kafka_write_member_log_config
  "$RR_JAVA17/bin/java" -Xmx256m -Djava.awt.headless=true \
    -Dlog4j2.configurationFile="$KAFKA_CONF_DIR/log4j2-member.properties" \
    -cp "$(kafka_cp)" "$RR_COMPOSE/kafka/PollTrapMember.java" "$@"
}

# The broker's own word: the "Kafka version: X" line its AppInfoParser printed at
# start-up (last start in our log), plus the metadata.version the running
# cluster reports over the Admin protocol (FeatureCommand describe).
kafka_version() {
  kafka_health || { echo "kafka: not running" >&2; return 1; }
  local v
  v="$(grep -o 'Kafka version: [^ ]*' "$RR_LOGS/kafka.log" 2>/dev/null | tail -1 | cut -d' ' -f3)"
  echo "kafka ${v:-unknown} (from the broker's start-up log line)"
  kafka_tool FeatureCommand --bootstrap-server "$RR_HOST:$RR_KAFKA_PORT" describe 2>/dev/null \
    | awk '$1=="Feature:" && ($2=="metadata.version" || $2=="transaction.version") {
             for (i=3; i<NF; i++) if ($i=="FinalizedVersionLevel:") print "kafka finalized " $2 "=" $(i+1) " (Admin DescribeFeatures)" }'
}
