// rosterrig/report/report.hpp: the pieces rosterrig-report writes the
// README's result sections and figures with (standard library only).
#ifndef ROSTERRIG_REPORT_REPORT_HPP
#define ROSTERRIG_REPORT_REPORT_HPP

#include "rosterrig/report/number_format.hpp"
#include "rosterrig/report/markdown_table.hpp"
#include "rosterrig/report/readme_splice.hpp"
#include "rosterrig/report/line_plot.hpp"

#endif
