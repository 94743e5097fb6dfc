/* SPDX-License-Identifier: GPL-2.0 */
/* test_header_order.c: emits two records, returns the line of the first. */
void kvtest_order_emit(void);
