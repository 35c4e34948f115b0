// rosterrig/experiments/claims.hpp: every claim the README makes, with the
// test that holds it and the mutation that makes the test fail. The README's
// "Claims and the tests that hold them" table is rendered from this list
// (rosterrig-report), and test/claims/claim_registry.tests.cpp checks each
// entry against the test sources.
#ifndef ROSTERRIG_EXPERIMENTS_CLAIMS_HPP
#define ROSTERRIG_EXPERIMENTS_CLAIMS_HPP

#include <string>
#include <vector>

#include "rosterrig/experiment/claim.hpp"
#include "rosterrig/report/markdown_table.hpp"

namespace rosterrig::experiments {

inline std::vector<experiment::claim> claims() {
    const std::string e1 = "test/claims/e1_claims.tests.cpp", e2 = "test/claims/e2_claims.tests.cpp",
                      e3 = "test/claims/e3_claims.tests.cpp",
                      engine = "test/claims/engine_claims.tests.cpp", judge = "test/unit/experiment_judgement.tests.cpp",
                      live = "test/live/CMakeLists.txt";
    return {
        // Experiment 1
        {"The full run made at least 30 kills per configuration",
         "the full run made at least thirty kills in each of the four configurations", e1, "drop one kill", false},
        {"Every kill landed while data was still arriving", "every kill landed while data was still arriving", e1,
         "a kill recorded after the whole feed was sent", true},
        {"Every kill was a real failure, and the same job restarted from a checkpoint",
         "every kill was seen by Flink as a failure and the same job restarted from a checkpoint", e1,
         "RESTARTING recorded before the kill", true},
        {"The checkpointing mode and interval in force are the ones requested, as Flink reports them",
         "the checkpointing mode and interval in force are what was requested", e1,
         "exactly_once in force for an at-least-once request", false},
        {"Upsert tables hold one row per NPI, each the expected latest, checked against the seed",
         "every upsert table holds the expected latest row for each NPI and nothing else", e1, "one stale row", true},
        {"Append tables hold every event exactly once after all the kills",
         "append tables hold every event exactly once after all the kills", e1, "one missing run", true},
        {"The checkpointing mode changed nothing: each table kind ended the same under both modes",
         "the checkpointing mode changed nothing: each table kind ended the same under both modes", e1,
         "one duplicate row under at-least-once + append", true},
        {"Append writes no delete files; upsert pays for idempotence in equality delete files",
         "append tables write no delete files and upsert tables pay for idempotence in equality deletes", e1,
         "three equality delete files in an append table", true},
        {"Every job was still running after its last kill when its table was read",
         "every configuration's job was still running after its last kill when its table was read back", e1,
         "a final job state of FAILED", false},
        {"The committed offsets really were rewound to the start of the log",
         "the committed offsets really were rewound to the start of the log", e1, "a rewind that did not take", true},
        {"Recovery from the checkpoint ignored the rewound offsets", 
         "recovery from the checkpoint ignored the rewound offsets: nothing was replayed", e1, "one duplicate after the restore", true},
        {"The restored job's checkpoints wrote its position back over the rewound offsets",
         "the restored job's checkpoints wrote its position back over the rewound offsets", e1,
         "offsets that never came back", false},
        {"A fresh job that trusted the rewound offsets replayed the whole log",
         "a fresh job that trusted the rewound offsets replayed the whole log", e1, "one record fewer replayed", true},
        {"The verdicts on record are the ones the code computes from the samples, reasons included",
         "the verdicts on record are the ones the code computes from the samples", e1,
         "a duplicate recorded on the shipped samples changes the recomputed verdict", false},
        // Experiment 2
        {"Each variant ran at least three times", "each variant ran at least three times in the full run", e2,
         "drop one repeat", false},
        {"The savepoint really was older than the table's newest commit",
         "the savepoint really was older than the table's newest commit", e2, "a savepoint at the watermark", true},
        {"The sampler looked at least every half second from the restore request",
         "the sampler looked at least every half second from the restore request", e2, "a 1 s sampler", false},
        {"With the default sink the table did not move while the restored job was healthy, through the checkpoints up to the watermark",
         "with the default sink the table did not move while the restored job was healthy", e2,
         "the table moves two checkpoints before the watermark", true},
        {"With the default sink the freeze ended at the first checkpoint above the watermark",
         "with the default sink the freeze ended at the first checkpoint above the watermark", e2,
         "the burst ends at the watermark", true},
        {"With the default sink the backlog committed in one lump", "with the default sink the backlog committed in one lump",
         e2, "the backlog spread over two snapshots", true},
        {"Consumer lag reached zero while the table was stale", "the consumer lag reached zero while the table was stale",
         e2, "lag above zero throughout", true},
        {"No failed checkpoint and no job failure marked the freeze",
         "no failed checkpoint and no job failure marked the freeze", e2, "one failed checkpoint during the freeze", true},
        {"Nothing was lost in any append variant, and the replay was committed a second time",
         "nothing was lost in any append variant, and the replay duplicated rows", e2, "one missing run", true},
        {"Data written after the freeze ended lands, once", "data written after the freeze landed once in every run", e2,
         "one seq of the third batch missing", true},
        {"The upsert variant hides the replay from a reader", "the upsert variant hides the replay from a reader", e2,
         "one stale row", false},
        {"The e2 verdicts on record are the ones the code computes, reasons included",
         "the e2 verdicts on record are the ones the code computes from the samples", e2,
         "a missing seq recorded on the shipped samples refutes the append prediction", false},
        // What the experiments depend on
        {"An upsert table declares the primary key and the upsert flag together",
         "an upsert table declares the primary key and the upsert flag together", engine,
         "delete 'write.upsert.enabled' from sql/upsert_table.sql", false},
        {"An append table declares no primary key and no upsert flag",
         "an append table declares no primary key and no upsert flag", engine, "add the upsert flag to sql/append_table.sql", false},
        {"Both table shapes and the source take the roster columns from one file",
         "both table shapes and the source take the roster columns from one file", engine,
         "paste the columns into sql/append_table.sql", false},
        {"A table property an experiment asks for (experiment 3's target size) reaches the CREATE TABLE",
         "a table property an experiment asks for is in the CREATE TABLE, beside the fixed ones", engine,
         "drop ${table_properties} from sql/append_table.sql", false},
        {"Restart attempts are raised, so a kill does not end the job",
         "the stack's Flink restarts a killed job at least as many times as an experiment kills it", engine,
         "restart attempts 1000 -> 1 in compose/flink/component.sh", true},
        {"Flink's exception history keeps an entry for every kill",
         "the stack's Flink keeps an exception-history entry for every kill an experiment makes", engine,
         "exception history size 1000 -> 16", false},
        // Experiment 3
        {"The full run covers the 3 x 3 grid, the 1 GB cell, the control and three baseline runs",
         "the full run covers the grid, the 1 GB cell, the control and three baseline runs", e3,
         "the last baseline repeat missing", true},
        {"Every cell ran with the interval, writers and target it asked for, as Flink's config, Flink's plan and the catalog report them",
         "every cell ran with the interval, writers and target it asked for, as the components report them", e3,
         "the catalog without the 1 GB target", false},
        {"Every cell landed the whole feed exactly once", "every cell landed the whole feed exactly once", e3,
         "one duplicate row in one cell", true},
        {"Every feed was paced to the same duration (within 2 %), so commit counts are the setting's",
         "every feed was paced to the same duration within two percent", e3, "one producer five seconds longer", false},
        {"Every row was traced to the snapshot that made it visible",
         "every row was traced to the snapshot that made it visible", e3, "one row whose file the metadata did not list", false},
        {"Files per commit track the writer subtasks, not the data, in every cell but the control",
         "files per commit track the writer subtasks, not the data, in every cell but the control", e3,
         "one commit with a data file more than its writers", true},
        {"The target reaches the writer: the control rolled files inside a checkpoint",
         "the target reaches the writer: the control rolled files inside a checkpoint", e3,
         "the control's extra files merged back into one per writer and commit", false},
        {"A longer interval gives fewer and larger files at every parallelism",
         "a longer interval gives fewer and larger files, at every parallelism", e3,
         "the longest interval's files at one writer one byte each", true},
        {"Freshness is what larger files cost: the median wait grows with the interval",
         "freshness is what larger files cost: the median wait grows with the interval", e3,
         "the longest interval's freshness replaced by the shortest's", true},
        {"A 1 GB target left every file four orders of magnitude below it",
         "a 1 GB target still left every file four orders of magnitude below it", e3, "one 200 KB file in the 1 GB cell", true},
        {"The interval moves mean file size more than twenty times further than the 1 GB target does",
         "the interval moves mean file size far more than the 1 GB target does", e3, "the 1 GB cell's files twice as large", true},
        {"Every reader table held exactly the latest row per NPI before it was timed, and every answer was right",
         "every reader table held exactly the latest row per NPI before it was timed, and every answer was right", e3,
         "one stale row in an optimized table", false},
        {"The short-interval upsert table carries many small files and equality deletes; the append table none",
         "the short-interval upsert table reads through many small files and equality deletes, the append table through none",
         e3, "an equality-delete file in the append table", false},
        {"The e3 verdicts on record are the ones the code computes from the samples",
         "the e3 verdicts on record are the ones the code computes from the samples", e3,
         "a duplicate recorded on the shipped samples changes the recomputed verdict", false},
        // The judge and the core
        {"A prediction no rule knows is inconclusive, never held",
         "a prediction no rule knows is inconclusive, not held and not dropped", judge,
         "default an unmatched prediction to held", false},
        {"Three kills cannot hold a no-duplicates prediction; thirty clean ones do",
         "thirty clean kills hold the no-duplicates prediction, three are inconclusive", judge,
         "judge held whenever no kill duplicated, ignoring the bound", false},
        {"The FlinkSink append rule fails on each broken part of the freeze",
         "the FlinkSink append rule holds on a frozen restore and fails on each broken part", judge,
         "drop `ended_by_checkpoint == watermark_before + 1` from the rule", false},
        {"Duplicates are attributed to the first kill that could have caused them",
         "a duplicate goes to the first kill that came after its seq was sent", "test/unit/kill_attribution.tests.cpp",
         "attribute to the last kill at or after the seq instead of the first", false},
        {"The same seed gives the same feed, pinned by SHA-256", "the default feed's bytes are pinned by SHA-256",
         "test/unit/generator.tests.cpp", "change the last hex digit of the feed's salt", true},
        {"Clopper–Pearson bounds match independently computed values",
         "with events the upper bound matches an independent implementation", "test/unit/stats.tests.cpp",
         "the lower bound's Beta(k, n-k+1) shape in place of the upper's", false},
        {"The README's result sections are what the results say; a deleted section, an edited figure or a replaced plot fails",
         "report: a deleted section, an edited figure or a replaced plot fails the check", "test/CMakeLists.txt",
         "a missing marker made a warning again", true},
        // Live
        {"A run killed with SIGKILL keeps its history (running, samples, what it created); the next run removes exactly its leftovers, then completes; one stopped with SIGTERM records failed and cleans up",
         "live.killed_run_keeps_its_history", live, "write the history only at the end: the killed run leaves none", false},
        {"Clean-up never removes a name no dead run recorded, nor anything of a run that ended or whose driver still runs",
         "clean-up never removes a name it did not record", "test/unit/leftovers.tests.cpp",
         "take leftovers from failed and complete runs too (drop the status test)", false},
        {"The stack works end to end in both warehouse modes", "live.smoke_${mode}_lands_every_event_once", live,
         "not mutation-checked (live); it reads back through Trino with the append check the unit tests hold", false},
    };
}

/// The README's claim table.
inline std::string claims_section() {
    report::markdown_table t{{"Claim", "Test", "Fails when", "Also in the reference study"}};
    for (const auto& c : claims())
        t.row({c.sentence, "`" + c.file + "`: \"" + c.test + "\"", c.mutation, c.from_reference ? "yes" : ""});
    return t.render();
}

} // namespace rosterrig::experiments

#endif
