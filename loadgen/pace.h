/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * loadgen: the open loop (rate > 0) of the request/response generators.
 *
 * Requests leave on a fixed schedule, one every period, whatever the replies
 * do; each is timed from its scheduled send, so a generator held up (by a
 * tracer, the scheduler, the hypervisor) counts the delay against every
 * request it postponed instead of leaving them out (no coordinated
 * omission). A request that leaves a period or more behind its schedule is
 * late, and counted. The requests in flight sit in a ring of LB_PACE_RING
 * slots indexed by sequence number.
 *
 * This file must not include any tracing header.
 */
#ifndef LB_PACE_H
#define LB_PACE_H

#include <stdbool.h>
#include <stdint.h>

#include "workload.h"

#define LB_PACE_RING 4096 /* requests in flight a generator keeps track of */
/* The longest a paced generator sleeps before it looks at the stop flag again. */
#define LB_PACE_WAIT_MAX_NS (100 * 1000000ull)

struct lb_pace {
	uint64_t period;		/* ns between two scheduled sends */
	uint64_t next;			/* the next send's scheduled time (lb_clock_ns) */
	uint64_t next_seq;		/* its sequence number (from 1) */
	uint64_t oldest;		/* the oldest sequence number that may be in flight */
	uint64_t late;			/* sends a period or more behind their schedule */
	uint64_t timeouts;		/* requests given up on (lb_pace_give_up) */
	uint64_t napped;		/* lb_napped_ns() when last skipped (lb_pace_skip_naps) */
	uint64_t seq[LB_PACE_RING];	/* the request in flight in each slot; 0 = none */
	uint64_t when[LB_PACE_RING];	/* its scheduled send time */
};

/*
 * lb_pace_start - in @w's generator: a schedule starting now, one send
 * every sh->period_ns, and sleeps that end on time (timer slack of 1 ns).
 * Returns it (free() it), or NULL after filling the generator's error slot.
 */
struct lb_pace *lb_pace_start(struct lb_flow *w);

/*
 * lb_pace_skip_naps - after lb_past_deadline(): move the schedule (and
 * *@now) past the time this process napped since the last call. Those sends
 * were never due: the naps fall where loadbench measures nothing, and a
 * burst of them after would run into the next slice as late requests.
 */
void lb_pace_skip_naps(struct lb_pace *p, uint64_t *now);

/* lb_pace_due - whether the next send is due at @now. */
static inline bool lb_pace_due(const struct lb_pace *p, uint64_t now)
{
	return p->next <= now;
}

/* lb_pace_inflight - requests sent and neither answered nor given up on. */
static inline uint64_t lb_pace_inflight(const struct lb_pace *p)
{
	return p->next_seq - p->oldest;
}

/*
 * lb_pace_take - the send due at @now goes out: its slot records it (a
 * request still in that slot, LB_PACE_RING sends old, is given up on and
 * counted in *@expired), it is counted late if @now is a period or more
 * past its schedule (published in sh->late), and the schedule moves on one
 * period. Returns its sequence number.
 */
uint64_t lb_pace_take(struct lb_pace *p, struct lb_shared *sh, uint64_t now, uint64_t *expired);

/*
 * lb_pace_answer - the reply to @seq arrived: free its slot. Returns the
 * request's scheduled send time, or 0 when @seq is not in flight (answered
 * already, given up on, or never sent: lb_pace_sent() tells those apart).
 */
uint64_t lb_pace_answer(struct lb_pace *p, uint64_t seq);

/* lb_pace_sent - whether @seq is a sequence number @p has sent. */
static inline bool lb_pace_sent(const struct lb_pace *p, uint64_t seq)
{
	return seq && seq < p->next_seq;
}

/*
 * lb_pace_expire - give up on the requests in flight scheduled @timeout_ns
 * or more before @now (lost). Returns how many.
 */
uint64_t lb_pace_expire(struct lb_pace *p, uint64_t now, uint64_t timeout_ns);

/*
 * lb_pace_give_up - the @lost requests lb_pace_take() overwrote and those
 * lb_pace_expire() finds older than LB_RCVTIMEO_MS at @now are timeouts:
 * counted and published in sh->timeouts (datagram workloads: lost, never
 * resent). Returns nothing.
 */
void lb_pace_give_up(struct lb_pace *p, struct lb_shared *sh, uint64_t now, uint64_t lost);

/*
 * lb_pace_wait - in @w's generator: wait for @fd to become readable, until
 * the next send is due (when @can_send) and at most LB_PACE_WAIT_MAX_NS.
 * Returns > 0 readable, 0 time to send (or interrupted: look at the stop
 * flag), -1 after filling the generator's error slot.
 */
int lb_pace_wait(struct lb_flow *w, const struct lb_pace *p, int fd, uint64_t now, bool can_send);

#endif
