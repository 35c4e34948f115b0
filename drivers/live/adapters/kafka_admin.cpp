#include "adapters/kafka_admin.hpp"

#include <librdkafka/rdkafka.h>
#include <memory>

namespace rosterrig::live {

namespace {
constexpr int admin_timeout_ms = 15000;

struct queue_deleter {
    void operator()(rd_kafka_queue_t* q) const { rd_kafka_queue_destroy(q); }
};
struct event_deleter {
    void operator()(rd_kafka_event_t* e) const { rd_kafka_event_destroy(e); }
};
struct options_deleter {
    void operator()(rd_kafka_AdminOptions_t* o) const { rd_kafka_AdminOptions_destroy(o); }
};
struct list_deleter {
    void operator()(rd_kafka_topic_partition_list_t* l) const { rd_kafka_topic_partition_list_destroy(l); }
};
using queue_ptr = std::unique_ptr<rd_kafka_queue_t, queue_deleter>;
using event_ptr = std::unique_ptr<rd_kafka_event_t, event_deleter>;
using options_ptr = std::unique_ptr<rd_kafka_AdminOptions_t, options_deleter>;
using list_ptr = std::unique_ptr<rd_kafka_topic_partition_list_t, list_deleter>;

options_ptr make_options(rd_kafka_t* rk, rd_kafka_admin_op_t op) {
    options_ptr o(rd_kafka_AdminOptions_new(rk, op));
    char err[256];
    rd_kafka_AdminOptions_set_request_timeout(o.get(), admin_timeout_ms, err, sizeof err);
    return o;
}

// librdkafka reports a failed SASL or TLS handshake only to the error
// callback and keeps retrying; the request would wait out its timeout. The
// callback keeps the reason (librdkafka's text, which never holds the secret).
void on_error(rd_kafka_t*, int code, const char* reason, void* opaque) {
    if (code == RD_KAFKA_RESP_ERR__AUTHENTICATION || code == RD_KAFKA_RESP_ERR__SSL ||
        code == RD_KAFKA_RESP_ERR_SASL_AUTHENTICATION_FAILED)
        *static_cast<std::string*>(opaque) = reason;
}

event_ptr wait_result(const component_address& broker, rd_kafka_t* rk, rd_kafka_queue_t* q, const std::string& what,
                      const std::string& auth_failure) {
    const int deadline_ms = admin_timeout_ms + 5000;
    for (int waited = 0; waited < deadline_ms; waited += 200) {
        event_ptr ev(rd_kafka_queue_poll(q, 200));
        if (ev) {
            if (rd_kafka_event_error(ev.get()))
                throw live_error(broker, what + ": " + rd_kafka_event_error_string(ev.get()));
            return ev;
        }
        rd_kafka_poll(rk, 0);  // serves the error callback
        if (!auth_failure.empty()) throw live_error(broker, what + ": the broker refused the client: " + auth_failure);
    }
    throw live_error(broker, what + ": no answer within " + std::to_string(deadline_ms) + " ms");
}
}  // namespace

kafka_admin::kafka_admin(const component_address& broker) : broker_(broker) {
    char err[512];
    rd_kafka_conf_t* conf = rd_kafka_conf_new();
    if (rd_kafka_conf_set(conf, "bootstrap.servers", broker_.where().c_str(), err, sizeof err) != RD_KAFKA_CONF_OK ||
        rd_kafka_conf_set(conf, "socket.timeout.ms", "10000", err, sizeof err) != RD_KAFKA_CONF_OK) {
        rd_kafka_conf_destroy(conf);
        throw live_error(broker_, std::string("admin config: ") + err);
    }
    for (const auto& [k, v] : broker_.client)
        if (rd_kafka_conf_set(conf, k.c_str(), v.c_str(), err, sizeof err) != RD_KAFKA_CONF_OK) {
            rd_kafka_conf_destroy(conf);
            throw live_error(broker_, "admin config " + k + ": " + err);
        }
    rd_kafka_conf_set_error_cb(conf, on_error);
    rd_kafka_conf_set_opaque(conf, &auth_failure_);
    // A producer handle is the lightest client that can run admin calls and
    // query watermarks.
    handle_ = rd_kafka_new(RD_KAFKA_PRODUCER, conf, err, sizeof err);
    if (!handle_) throw live_error(broker_, std::string("cannot create admin client: ") + err);
}

kafka_admin::~kafka_admin() {
    if (handle_) rd_kafka_destroy(handle_);
}

void kafka_admin::create_topic(const std::string& topic, int partitions) {
    char err[512];
    rd_kafka_NewTopic_t* nt = rd_kafka_NewTopic_new(topic.c_str(), partitions, 1, err, sizeof err);
    if (!nt) throw live_error(broker_, "create topic " + topic + ": " + err);
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_CREATETOPICS);
    rd_kafka_CreateTopics(handle_, &nt, 1, opts.get(), q.get());
    rd_kafka_NewTopic_destroy(nt);
    auto ev = wait_result(broker_, handle_, q.get(), "create topic " + topic, auth_failure_);
    size_t n = 0;
    const rd_kafka_topic_result_t** res =
        rd_kafka_CreateTopics_result_topics(rd_kafka_event_CreateTopics_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        auto code = rd_kafka_topic_result_error(res[i]);
        if (code != RD_KAFKA_RESP_ERR_NO_ERROR)
            throw live_error(broker_, "create topic " + topic + ": " + rd_kafka_topic_result_error_string(res[i]));
    }
}

void kafka_admin::delete_topic(const std::string& topic) {
    rd_kafka_DeleteTopic_t* dt = rd_kafka_DeleteTopic_new(topic.c_str());
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_DELETETOPICS);
    rd_kafka_DeleteTopics(handle_, &dt, 1, opts.get(), q.get());
    rd_kafka_DeleteTopic_destroy(dt);
    auto ev = wait_result(broker_, handle_, q.get(), "delete topic " + topic, auth_failure_);
    size_t n = 0;
    const rd_kafka_topic_result_t** res =
        rd_kafka_DeleteTopics_result_topics(rd_kafka_event_DeleteTopics_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        auto code = rd_kafka_topic_result_error(res[i]);
        if (code != RD_KAFKA_RESP_ERR_NO_ERROR && code != RD_KAFKA_RESP_ERR_UNKNOWN_TOPIC_OR_PART)
            throw live_error(broker_, "delete topic " + topic + ": " + rd_kafka_topic_result_error_string(res[i]));
    }
}

void kafka_admin::delete_group(const std::string& group) {
    rd_kafka_DeleteGroup_t* dg = rd_kafka_DeleteGroup_new(group.c_str());
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_DELETEGROUPS);
    rd_kafka_DeleteGroups(handle_, &dg, 1, opts.get(), q.get());
    rd_kafka_DeleteGroup_destroy(dg);
    auto ev = wait_result(broker_, handle_, q.get(), "delete group " + group, auth_failure_);
    size_t n = 0;
    const rd_kafka_group_result_t** res =
        rd_kafka_DeleteGroups_result_groups(rd_kafka_event_DeleteGroups_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i)
        if (const rd_kafka_error_t* e = rd_kafka_group_result_error(res[i]);
            e && rd_kafka_error_code(e) != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
            throw live_error(broker_, "delete group " + group + ": " + rd_kafka_error_string(e));
}

kafka_admin::group_description kafka_admin::describe_group(const std::string& group) {
    const char* groups[] = {group.c_str()};
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_DESCRIBECONSUMERGROUPS);
    rd_kafka_DescribeConsumerGroups(handle_, groups, 1, opts.get(), q.get());
    auto ev = wait_result(broker_, handle_, q.get(), "describe group " + group, auth_failure_);
    size_t n = 0;
    const rd_kafka_ConsumerGroupDescription_t** d =
        rd_kafka_DescribeConsumerGroups_result_groups(rd_kafka_event_DescribeConsumerGroups_result(ev.get()), &n);
    group_description out;
    for (size_t i = 0; i < n; ++i) {
        if (const rd_kafka_error_t* e = rd_kafka_ConsumerGroupDescription_error(d[i]);
            e && rd_kafka_error_code(e) != RD_KAFKA_RESP_ERR_GROUP_ID_NOT_FOUND)
            throw live_error(broker_, "describe group " + group + ": " + rd_kafka_error_string(e));
        out.state = rd_kafka_consumer_group_state_name(rd_kafka_ConsumerGroupDescription_state(d[i]));
        for (size_t m = 0; m < rd_kafka_ConsumerGroupDescription_member_count(d[i]); ++m)
            out.member_client_ids.emplace_back(
                rd_kafka_MemberDescription_client_id(rd_kafka_ConsumerGroupDescription_member(d[i], m)));
    }
    return out;
}

std::map<int, long long> kafka_admin::committed_offsets(const std::string& group, const std::string& topic,
                                                        int partitions) {
    list_ptr parts(rd_kafka_topic_partition_list_new(partitions));
    for (int p = 0; p < partitions; ++p) rd_kafka_topic_partition_list_add(parts.get(), topic.c_str(), p);
    rd_kafka_ListConsumerGroupOffsets_t* req = rd_kafka_ListConsumerGroupOffsets_new(group.c_str(), parts.get());
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_LISTCONSUMERGROUPOFFSETS);
    rd_kafka_ListConsumerGroupOffsets(handle_, &req, 1, opts.get(), q.get());
    rd_kafka_ListConsumerGroupOffsets_destroy(req);
    auto ev = wait_result(broker_, handle_, q.get(), "list offsets of group " + group, auth_failure_);
    size_t n = 0;
    const rd_kafka_group_result_t** groups =
        rd_kafka_ListConsumerGroupOffsets_result_groups(rd_kafka_event_ListConsumerGroupOffsets_result(ev.get()), &n);
    std::map<int, long long> out;
    for (int p = 0; p < partitions; ++p) out[p] = -1;
    for (size_t i = 0; i < n; ++i) {
        if (const rd_kafka_error_t* e = rd_kafka_group_result_error(groups[i]))
            throw live_error(broker_, "list offsets of group " + group + ": " + rd_kafka_error_string(e));
        const rd_kafka_topic_partition_list_t* l = rd_kafka_group_result_partitions(groups[i]);
        for (int j = 0; l && j < l->cnt; ++j) out[l->elems[j].partition] = l->elems[j].offset;
    }
    return out;
}

void kafka_admin::alter_committed_offsets(const std::string& group, const std::string& topic,
                                          const std::map<int, long long>& offsets) {
    list_ptr parts(rd_kafka_topic_partition_list_new(static_cast<int>(offsets.size())));
    for (const auto& [p, off] : offsets) rd_kafka_topic_partition_list_add(parts.get(), topic.c_str(), p)->offset = off;
    rd_kafka_AlterConsumerGroupOffsets_t* req = rd_kafka_AlterConsumerGroupOffsets_new(group.c_str(), parts.get());
    queue_ptr q(rd_kafka_queue_new(handle_));
    auto opts = make_options(handle_, RD_KAFKA_ADMIN_OP_ALTERCONSUMERGROUPOFFSETS);
    rd_kafka_AlterConsumerGroupOffsets(handle_, &req, 1, opts.get(), q.get());
    rd_kafka_AlterConsumerGroupOffsets_destroy(req);
    auto ev = wait_result(broker_, handle_, q.get(), "alter offsets of group " + group, auth_failure_);
    size_t n = 0;
    const rd_kafka_group_result_t** groups =
        rd_kafka_AlterConsumerGroupOffsets_result_groups(rd_kafka_event_AlterConsumerGroupOffsets_result(ev.get()), &n);
    for (size_t i = 0; i < n; ++i) {
        if (const rd_kafka_error_t* e = rd_kafka_group_result_error(groups[i]))
            throw live_error(broker_, "alter offsets of group " + group + ": " + rd_kafka_error_string(e));
        const rd_kafka_topic_partition_list_t* l = rd_kafka_group_result_partitions(groups[i]);
        for (int j = 0; l && j < l->cnt; ++j)
            if (l->elems[j].err)
                throw live_error(broker_, "alter offsets of group " + group + " partition " +
                                              std::to_string(l->elems[j].partition) + ": " +
                                              rd_kafka_err2str(l->elems[j].err));
    }
}

std::map<int, long long> kafka_admin::end_offsets(const std::string& topic, int partitions) {
    std::map<int, long long> out;
    for (int p = 0; p < partitions; ++p) {
        int64_t low = 0, high = 0;
        auto err = rd_kafka_query_watermark_offsets(handle_, topic.c_str(), p, &low, &high, 10000);
        if (err)
            throw live_error(broker_,
                             "watermarks of " + topic + "/" + std::to_string(p) + ": " + rd_kafka_err2str(err));
        out[p] = high;
    }
    return out;
}

long long kafka_admin::lag(const std::string& group, const std::string& topic, int partitions) {
    auto ends = end_offsets(topic, partitions);
    auto committed = committed_offsets(group, topic, partitions);
    long long sum = 0;
    for (const auto& [p, end] : ends) sum += end - std::max(0LL, committed[p]);
    return sum;
}

}  // namespace rosterrig::live
