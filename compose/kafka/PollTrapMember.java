// One member of a consumer group for the poll-interval trap experiment: it takes
// batches of --batch records per poll, "processes" each with a simulated dependency
// of --latency-ms (a sleep), commits the batch, and writes what the application
// sees (records, commits, rebalances, exceptions) to --log as JSON lines.
// Runs in source-file mode: java -cp <kafka jars> PollTrapMember.java --bootstrap ...
import java.io.FileOutputStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.*;
import java.util.concurrent.*;
import java.util.concurrent.locks.ReentrantLock;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.*;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

public class PollTrapMember {
    static final List<String> FLAGS = List.of("bootstrap", "topic", "group", "member", "batch", "latency-ms",
            "max-poll-interval-ms", "protocol", "mode", "run-ms", "log");
    static String member, topic;
    static long latencyMs;
    static boolean pauseMode;
    static PrintWriter log;
    static KafkaConsumer<String, String> consumer;
    // Per-batch state shared with the worker (pause mode). The worker holds recordLock
    // while it processes one record, so a revoke can wait for the record in progress.
    static final ReentrantLock recordLock = new ReentrantLock();
    static final Set<Integer> skip = ConcurrentHashMap.newKeySet();     // partitions taken away mid-batch
    static final Map<Integer, Long> done = new ConcurrentHashMap<>();   // partition -> last processed + 1
    static final List<ConsumerRecord<String, String>> pending = new ArrayList<>(); // polled, not yet handed out

    public static void main(String[] args) throws Exception {
        Map<String, String> f = parseFlags(args);
        member = f.get("member");
        topic = f.get("topic");
        int batch = (int) number(f, "batch", 1);
        latencyMs = number(f, "latency-ms", 0);
        long maxPollMs = number(f, "max-poll-interval-ms", 1), runMs = number(f, "run-ms", 0);
        String protocol = f.get("protocol"), mode = f.get("mode");
        if (!protocol.equals("classic") && !protocol.equals("consumer")) usage("--protocol must be classic or consumer");
        if (!mode.equals("plain") && !mode.equals("pause")) usage("--mode must be plain or pause");
        pauseMode = mode.equals("pause");
        log = new PrintWriter(new FileOutputStream(f.get("log"), true), false, StandardCharsets.UTF_8);

        Properties p = new Properties();
        p.put("bootstrap.servers", f.get("bootstrap"));
        p.put("group.id", f.get("group"));
        p.put("client.id", member);
        p.put("group.protocol", protocol);
        p.put("enable.auto.commit", "false");
        p.put("auto.offset.reset", "earliest");
        p.put("key.deserializer", StringDeserializer.class.getName());
        p.put("value.deserializer", StringDeserializer.class.getName());
        p.put("max.poll.records", String.valueOf(batch));
        p.put("max.poll.interval.ms", String.valueOf(maxPollMs));
        if (protocol.equals("classic")) { // the consumer protocol rejects these two client-side (the broker owns them)
            p.put("session.timeout.ms", "6000");
            p.put("heartbeat.interval.ms", "1000");
        }
        emit("start", "\"protocol\":" + q(protocol) + ",\"mode\":" + q(mode) + ",\"batch\":" + batch
                + ",\"latency_ms\":" + latencyMs + ",\"max_poll_interval_ms\":" + maxPollMs + ",\"client\":\"java\""
                + ",\"client_version\":" + q("kafka-clients " + org.apache.kafka.common.utils.AppInfoParser.getVersion()));
        consumer = new KafkaConsumer<>(p);
        consumer.subscribe(List.of(topic), new Listener());
        long end = System.currentTimeMillis() + runMs; // a batch in progress at the deadline is finished first
        ExecutorService worker = Executors.newSingleThreadExecutor();
        if (pauseMode) runPaused(worker, end); else runPlain(end);
        try { consumer.close(); } catch (Exception e) { emit("error", "\"where\":\"close\",\"error\":" + q(err(e))); }
        worker.shutdownNow();
        emit("end", null);
        log.close();
        System.exit(0);
    }

    // The trap as most applications write it: process the whole batch between two polls.
    static void runPlain(long end) throws InterruptedException {
        while (System.currentTimeMillis() < end) {
            if (!poll()) continue;
            List<ConsumerRecord<String, String>> batch = new ArrayList<>(pending);
            pending.clear(); done.clear();
            long t0 = System.currentTimeMillis();
            int n = process(batch);
            emit("batch", "\"records\":" + n + ",\"took_ms\":" + (System.currentTimeMillis() - t0));
            commit(new TreeMap<>(done));
        }
    }

    // The fix: pause the assignment, let a worker process the batch, and keep calling
    // poll() (which then returns nothing) so the member stays within max.poll.interval.ms.
    // Only this thread touches the consumer; the worker only sleeps and logs.
    static void runPaused(ExecutorService worker, long end) throws InterruptedException {
        Future<Integer> work = null;
        long t0 = 0;
        while (true) {
            if (work == null) {
                if (System.currentTimeMillis() >= end) break; // pending is uncommitted: read again later
                if (!pending.isEmpty()) {
                    List<ConsumerRecord<String, String>> batch = new ArrayList<>(pending);
                    pending.clear(); skip.clear(); done.clear();
                    consumer.pause(consumer.assignment());
                    t0 = System.currentTimeMillis();
                    work = worker.submit(() -> process(batch));
                }
            }
            poll(); // while busy, anything returned (a partition assigned in this poll) waits in pending
            if (work == null) continue;
            consumer.pause(consumer.assignment()); // partitions assigned during that poll are not paused yet
            if (!work.isDone()) continue;
            int n = 0;
            try { n = work.get(); } catch (ExecutionException e) {
                emit("error", "\"where\":\"worker\",\"error\":" + q(err(e.getCause())));
            }
            // records = processed, so records skipped after a revoke are not counted
            emit("batch", "\"records\":" + n + ",\"took_ms\":" + (System.currentTimeMillis() - t0));
            work = null;
            if (!done.isEmpty()) commit(new TreeMap<>(done));
            done.clear(); // committed (or failed): a later revoke must not commit these again
            consumer.resume(consumer.paused()); // a pending next batch pauses again before the next poll
        }
    }

    // One poll; its records go to pending. An exception is logged and the loop goes on.
    static boolean poll() throws InterruptedException {
        try {
            consumer.poll(Duration.ofMillis(100)).forEach(pending::add);
            return !pending.isEmpty();
        } catch (Exception e) {
            emit("error", "\"where\":\"poll\",\"error\":" + q(err(e)));
            Thread.sleep(100); // no hot loop if poll keeps failing at once
            return false;
        }
    }

    // Sleep latency per record, log it, remember its offset; skips partitions revoked mid-batch.
    static int process(List<ConsumerRecord<String, String>> batch) throws InterruptedException {
        int n = 0;
        for (ConsumerRecord<String, String> r : batch) {
            recordLock.lock();
            try {
                if (skip.contains(r.partition())) continue;
                Thread.sleep(latencyMs);
                emit("record", "\"partition\":" + r.partition() + ",\"offset\":" + r.offset() + ",\"seq\":" + seq(r.value()));
                done.put(r.partition(), r.offset() + 1);
                n++;
            } finally {
                recordLock.unlock();
            }
        }
        return n;
    }

    static void commit(Map<Integer, Long> offsets) {
        Map<TopicPartition, OffsetAndMetadata> m = new HashMap<>();
        offsets.forEach((part, off) -> m.put(new TopicPartition(topic, part), new OffsetAndMetadata(off)));
        String o = offsets.entrySet().stream().map(e -> q(e.getKey().toString()) + ":" + e.getValue())
                .collect(Collectors.joining(",", "{", "}"));
        try {
            consumer.commitSync(m);
            emit("commit", "\"ok\":true,\"offsets\":" + o);
        } catch (Exception e) { // CommitFailedException, RebalanceInProgressException, any KafkaException
            emit("commit", "\"ok\":false,\"offsets\":" + o + ",\"error\":" + q(err(e)));
        }
    }

    // Runs inside poll() on the main thread. In pause mode a rebalance can take partitions
    // while the worker is still on them: stop the worker on those partitions, commit what it
    // finished (revoked only: lost partitions already belong to someone else), and drop their
    // unprocessed records, which the new owner reads again from the committed offset.
    static class Listener implements ConsumerRebalanceListener {
        public void onPartitionsAssigned(Collection<TopicPartition> parts) { emit("assigned", partitions(parts)); }
        public void onPartitionsRevoked(Collection<TopicPartition> parts) { emit("revoked", partitions(parts)); settle(parts, true); }
        public void onPartitionsLost(Collection<TopicPartition> parts) { emit("lost", partitions(parts)); settle(parts, false); }

        void settle(Collection<TopicPartition> parts, boolean commitDone) {
            if (!pauseMode || parts.isEmpty()) return;
            Set<Integer> ps = parts.stream().map(TopicPartition::partition).collect(Collectors.toSet());
            skip.addAll(ps);
            pending.removeIf(r -> ps.contains(r.partition()));
            recordLock.lock(); // waits for the record in progress, if any
            recordLock.unlock();
            Map<Integer, Long> mine = new TreeMap<>();
            for (int part : ps) { Long off = done.remove(part); if (off != null) mine.put(part, off); }
            if (commitDone && !mine.isEmpty()) commit(mine);
        }
    }

    static String partitions(Collection<TopicPartition> parts) {
        return "\"partitions\":" + parts.stream().map(TopicPartition::partition).sorted().map(String::valueOf)
                .collect(Collectors.joining(",", "[", "]"));
    }

    // The value is a JSON object starting {"seq":N,...; -1 when there is no seq.
    static long seq(String v) {
        int i = v == null ? -1 : v.indexOf("\"seq\":");
        if (i < 0) return -1;
        int a = i + 6, b = a;
        while (b < v.length() && Character.isDigit(v.charAt(b))) b++;
        return b == a ? -1 : Long.parseLong(v.substring(a, b));
    }

    // One JSON line, flushed at once so a killed member still leaves its log. The worker logs too.
    static synchronized void emit(String kind, String rest) {
        log.print("{\"t\":" + System.currentTimeMillis() + ",\"member\":" + q(member) + ",\"kind\":" + q(kind)
                + (rest == null ? "" : "," + rest) + "}\n");
        log.flush();
    }

    static String err(Throwable e) { return e.getClass().getSimpleName() + ": " + e.getMessage(); }

    static String q(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : String.valueOf(s).toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\r' -> b.append("\\r");
                case '\t' -> b.append("\\t");
                default -> b.append(c < 0x20 ? String.format("\\u%04x", (int) c) : String.valueOf(c));
            }
        }
        return b.append('"').toString();
    }

    static Map<String, String> parseFlags(String[] a) {
        Map<String, String> f = new HashMap<>();
        for (int i = 0; i < a.length; i += 2) {
            if (!a[i].startsWith("--") || !FLAGS.contains(a[i].substring(2))) usage("unknown flag " + a[i]);
            if (i + 1 >= a.length) usage("flag " + a[i] + " needs a value");
            f.put(a[i].substring(2), a[i + 1]);
        }
        for (String k : FLAGS) if (!f.containsKey(k)) usage("missing --" + k);
        return f;
    }

    static long number(Map<String, String> f, String k, long min) {
        try {
            long v = Long.parseLong(f.get(k));
            if (v >= min && v <= Integer.MAX_VALUE) return v;
        } catch (NumberFormatException e) { /* reported below */ }
        usage("--" + k + " must be an integer >= " + min + ", got " + f.get(k));
        return 0;
    }

    static void usage(String why) {
        System.err.println("PollTrapMember: " + why + "\nusage: --bootstrap HOST:PORT --topic T --group G --member NAME"
                + " --batch B --latency-ms L --max-poll-interval-ms P --protocol classic|consumer"
                + " --mode plain|pause --run-ms D --log FILE");
        System.exit(2);
    }
}
