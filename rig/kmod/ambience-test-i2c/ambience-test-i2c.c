// SPDX-License-Identifier: GPL-2.0
/*
 * ambience-test-i2c: a test-only I2C adapter for Ambience's real-kernel rig.
 *
 * Why it exists: i2c-stub speaks SMBus only, and a BH1750 is read with a plain
 * two-byte read, which i2c-stub refuses. This adapter does real transfers
 * (I2C_FUNC_I2C; the i2c core emulates SMBus on top) and emulates two chips as
 * their datasheets describe them:
 *
 *   BH1750 at 0x23   one opcode per write; a read returns the data register,
 *                    high byte first; a measurement completes after its
 *                    measurement time (120 ms H-res/H-res2, 16 ms L-res, both
 *                    x MTreg/69), so a driver must wait it out.
 *   TSL2561 at 0x39  command byte (CMD bit 0x80, register in the low nibble),
 *                    CONTROL, TIMING, ID 0x50 (T/FN/CL rev 0), channel data
 *                    refreshed by each completed integration.
 *
 * Knobs, in /sys/module/ambience_test_i2c/parameters/:
 *   bh1750_present, tsl2561_present  1 plugged in, 0 unplugged: every transfer
 *                                    to the chip NACKs (-ENXIO). Plugging back
 *                                    in is a power-on reset, as on real hardware.
 *   bh1750_millilux                  the light the BH1750 sees, in millilux
 *   bh1750_counts                    -1 (default): counts follow the light;
 *                                    otherwise every measurement yields these
 *   tsl2561_ch0, tsl2561_ch1         counts each integration yields (clamped
 *                                    to the integration's full scale)
 *   bh1750_log, tsl2561_log          recent write transfers, oldest first, one
 *                                    word per transfer, bytes joined by ':'
 *                                    (e.g. "01 07 10", "80:03 8a"); writing
 *                                    anything clears the log
 *   bh1750_mtreg (read-only)         the MTreg as last written
 *   nr (load time only)              -1 (default): the next free bus number;
 *                                    otherwise this one, so that a reload can
 *                                    bring the bus back under another number,
 *                                    as a USB adapter replugged does
 */
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#define BH1750_ADDR 0x23
#define TSL2561_ADDR 0x39

/* One lock for chip state, knobs with side effects, and the logs. */
static DEFINE_MUTEX(chips_lock);

/* ---- Write logs: the bytes a driver sent, for tests to assert on. ---- */

#define LOG_ENTRIES 32
#define LOG_ENTRY_BYTES 4

struct write_log {
	u8 bytes[LOG_ENTRIES][LOG_ENTRY_BYTES];
	u8 lengths[LOG_ENTRIES];
	unsigned int next;	/* index of the slot written next */
	unsigned int count;	/* entries held, up to LOG_ENTRIES */
};

static void log_write(struct write_log *log, const u8 *buf, u16 len)
{
	unsigned int n = min_t(unsigned int, len, LOG_ENTRY_BYTES);

	memcpy(log->bytes[log->next], buf, n);
	log->lengths[log->next] = n;
	log->next = (log->next + 1) % LOG_ENTRIES;
	log->count = min(log->count + 1, (unsigned int)LOG_ENTRIES);
}

static int log_get(char *out, const struct kernel_param *kp)
{
	struct write_log *log = kp->arg;
	unsigned int i, j, slot;
	int len = 0;

	mutex_lock(&chips_lock);
	for (i = 0; i < log->count; i++) {
		slot = (log->next + LOG_ENTRIES - log->count + i) % LOG_ENTRIES;
		if (i)
			len += sysfs_emit_at(out, len, " ");
		for (j = 0; j < log->lengths[slot]; j++)
			len += sysfs_emit_at(out, len, "%s%02x", j ? ":" : "",
					     log->bytes[slot][j]);
	}
	len += sysfs_emit_at(out, len, "\n");
	mutex_unlock(&chips_lock);
	return len;
}

static int log_clear(const char *val, const struct kernel_param *kp)
{
	struct write_log *log = kp->arg;

	mutex_lock(&chips_lock);
	log->next = 0;
	log->count = 0;
	mutex_unlock(&chips_lock);
	return 0;
}

static const struct kernel_param_ops log_ops = {
	.get = log_get,
	.set = log_clear,
};

/* ---- BH1750 ---- */

static struct {
	bool powered;
	u8 mtreg;		/* as last written */
	u8 mode;		/* measurement opcode running, 0 when idle */
	u8 mode_mtreg;		/* the MTreg that measurement uses */
	ktime_t start;		/* when the running measurement started */
	u16 data;
} bh;

static bool bh1750_present = true;
static int bh1750_millilux = 100000;
module_param(bh1750_millilux, int, 0644);
static int bh1750_counts = -1;
module_param(bh1750_counts, int, 0644);
module_param_named(bh1750_mtreg, bh.mtreg, byte, 0444);
static struct write_log bh1750_log;
module_param_cb(bh1750_log, &log_ops, &bh1750_log, 0644);

static void bh1750_power_on_reset(void)
{
	bh.powered = false;
	bh.mtreg = 69;
	bh.mode = 0;
	bh.data = 0;
}

static bool bh1750_one_time(u8 mode) { return mode & 0x20; }
static bool bh1750_high_res2(u8 mode) { return (mode & 0x0f) == 0x01; }
static bool bh1750_low_res(u8 mode) { return (mode & 0x0f) == 0x03; }

/* counts = lux x 1.2 x MTreg/69 (x 2 in H-res2); L-res keeps multiples of 4. */
static u16 bh1750_result(void)
{
	u64 counts;

	if (bh1750_counts >= 0)
		return min(bh1750_counts, 0xffff);
	counts = div_u64((u64)max(bh1750_millilux, 0) * 12 * bh.mode_mtreg *
			 (bh1750_high_res2(bh.mode) ? 2 : 1), 69 * 10000);
	counts = min_t(u64, counts, 0xffff);
	return bh1750_low_res(bh.mode) ? counts & ~3ULL : counts;
}

/* Completes the running measurement if its measurement time has passed. */
static void bh1750_measure(void)
{
	s64 duration_us, elapsed_us;

	if (!bh.mode)
		return;
	/* max(): an MTreg of 0 (outside the chip's range) must not divide by 0. */
	duration_us = max((bh1750_low_res(bh.mode) ? 16000 : 120000) *
			  bh.mode_mtreg / 69, 1);
	elapsed_us = ktime_us_delta(ktime_get(), bh.start);
	if (elapsed_us < duration_us)
		return;
	bh.data = bh1750_result();
	if (bh1750_one_time(bh.mode)) {
		bh.mode = 0;
		bh.powered = false;
	} else {
		bh.start = ktime_add_us(bh.start,
					elapsed_us - elapsed_us % duration_us);
	}
}

static int bh1750_opcode(u8 op)
{
	switch (op) {
	case 0x00:
		bh.powered = false;
		bh.mode = 0;
		return 0;
	case 0x01:
		bh.powered = true;
		return 0;
	case 0x07:		/* ignored while powered down, per datasheet */
		if (bh.powered)
			bh.data = 0;
		return 0;
	case 0x10: case 0x11: case 0x13:
	case 0x20: case 0x21: case 0x23:
		bh.powered = true;
		bh.mode = op;
		bh.mode_mtreg = bh.mtreg;
		bh.start = ktime_get();
		return 0;
	case 0x40 ... 0x47:
		bh.mtreg = (bh.mtreg & 0x1f) | (op & 0x07) << 5;
		return 0;
	case 0x60 ... 0x7f:
		bh.mtreg = (bh.mtreg & 0xe0) | (op & 0x1f);
		return 0;
	default:
		return -EREMOTEIO;	/* NACK an opcode the chip does not know */
	}
}

static int bh1750_transfer(struct i2c_msg *msg)
{
	int i, err;

	bh1750_measure();
	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = i == 0 ? bh.data >> 8 :
				      i == 1 ? bh.data & 0xff : 0xff;
		return 0;
	}
	if (msg->len)
		log_write(&bh1750_log, msg->buf, msg->len);
	for (i = 0; i < msg->len; i++) {
		err = bh1750_opcode(msg->buf[i]);
		if (err)
			return err;
	}
	return 0;
}

/* ---- TSL2561 ---- */

#define TSL_CONTROL 0x0
#define TSL_TIMING 0x1
#define TSL_ID 0xa
#define TSL_DATA0 0xc

static struct {
	u8 regs[16];
	u8 selected;
	ktime_t start;		/* when the running integration started */
} tsl;

static bool tsl2561_present = true;
static ushort tsl2561_ch0 = 1000;
module_param(tsl2561_ch0, ushort, 0644);
static ushort tsl2561_ch1 = 300;
module_param(tsl2561_ch1, ushort, 0644);
static struct write_log tsl2561_log;
module_param_cb(tsl2561_log, &log_ops, &tsl2561_log, 0644);

static void tsl2561_power_on_reset(void)
{
	memset(tsl.regs, 0, sizeof(tsl.regs));
	tsl.regs[TSL_TIMING] = 0x02;	/* gain 1x, 402 ms */
	tsl.regs[TSL_ID] = 0x50;	/* TSL2561T/FN/CL, revision 0 */
	tsl.selected = 0;
}

static bool tsl2561_powered(void)
{
	return (tsl.regs[TSL_CONTROL] & 0x03) == 0x03;
}

/* Integration time (ms) and the full-scale count it can reach. */
static void tsl2561_integration(unsigned int *ms, u16 *full_scale)
{
	switch (tsl.regs[TSL_TIMING] & 0x03) {
	case 0:
		*ms = 14, *full_scale = 5047;
		break;
	case 1:
		*ms = 101, *full_scale = 37177;
		break;
	default:		/* 402 ms, and manual timing treated alike */
		*ms = 402, *full_scale = 65535;
	}
}

static void tsl2561_store(unsigned int reg, u16 counts)
{
	tsl.regs[reg] = counts & 0xff;
	tsl.regs[reg + 1] = counts >> 8;
}

/* Refreshes the data registers if an integration has completed. */
static void tsl2561_integrate(void)
{
	unsigned int ms;
	s64 elapsed_ms;
	u16 full_scale;

	if (!tsl2561_powered())
		return;
	tsl2561_integration(&ms, &full_scale);
	elapsed_ms = ktime_ms_delta(ktime_get(), tsl.start);
	if (elapsed_ms < ms)
		return;
	tsl2561_store(TSL_DATA0, min(tsl2561_ch0, full_scale));
	tsl2561_store(TSL_DATA0 + 2, min(tsl2561_ch1, full_scale));
	tsl.start = ktime_add_ms(tsl.start, elapsed_ms - elapsed_ms % ms);
}

static void tsl2561_write_register(unsigned int reg, u8 value)
{
	if (reg == TSL_ID || reg >= TSL_DATA0)
		return;		/* read-only */
	if (reg == TSL_CONTROL && !tsl2561_powered() && (value & 0x03) == 0x03)
		tsl.start = ktime_get();	/* powering up starts integrating */
	tsl.regs[reg] = value;
}

static int tsl2561_transfer(struct i2c_msg *msg)
{
	int i;

	tsl2561_integrate();
	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = tsl.regs[tsl.selected++ & 0x0f];
		return 0;
	}
	if (!msg->len)
		return 0;
	log_write(&tsl2561_log, msg->buf, msg->len);
	if (!(msg->buf[0] & 0x80))
		return -EREMOTEIO;	/* a command byte must have CMD set */
	tsl.selected = msg->buf[0] & 0x0f;
	for (i = 1; i < msg->len; i++)
		tsl2561_write_register(tsl.selected++ & 0x0f, msg->buf[i]);
	return 0;
}

/* ---- Presence: unplugging NACKs, plugging back in resets the chip. ---- */

static int present_set(const char *val, const struct kernel_param *kp)
{
	bool *present = kp->arg;
	bool was_present;
	int err;

	mutex_lock(&chips_lock);
	was_present = *present;
	err = param_set_bool(val, kp);
	if (!err && !was_present && *present) {
		if (present == &bh1750_present)
			bh1750_power_on_reset();
		else
			tsl2561_power_on_reset();
	}
	mutex_unlock(&chips_lock);
	return err;
}

static const struct kernel_param_ops present_ops = {
	.set = present_set,
	.get = param_get_bool,
};
module_param_cb(bh1750_present, &present_ops, &bh1750_present, 0644);
module_param_cb(tsl2561_present, &present_ops, &tsl2561_present, 0644);

/* ---- The adapter ---- */

static int chip_transfer(struct i2c_msg *msg)
{
	if (msg->addr == BH1750_ADDR && bh1750_present)
		return bh1750_transfer(msg);
	if (msg->addr == TSL2561_ADDR && tsl2561_present)
		return tsl2561_transfer(msg);
	return -ENXIO;		/* nobody acknowledges the address */
}

static int adapter_xfer(struct i2c_adapter *adapter, struct i2c_msg *msgs,
			int num)
{
	int i, err = 0;

	mutex_lock(&chips_lock);
	for (i = 0; i < num && !err; i++)
		err = chip_transfer(&msgs[i]);
	mutex_unlock(&chips_lock);
	return err ? err : num;
}

static u32 adapter_functionality(struct i2c_adapter *adapter)
{
	return I2C_FUNC_I2C | I2C_FUNC_SMBUS_EMUL;
}

static const struct i2c_algorithm adapter_algorithm = {
	.master_xfer = adapter_xfer,
	.functionality = adapter_functionality,
};

static struct i2c_adapter adapter = {
	.owner = THIS_MODULE,
	.algo = &adapter_algorithm,
	.name = "ambience-test-i2c",
};

static int nr = -1;
module_param(nr, int, 0444);

static int __init ambience_test_i2c_init(void)
{
	bh1750_power_on_reset();
	tsl2561_power_on_reset();
	if (nr < 0)
		return i2c_add_adapter(&adapter);
	adapter.nr = nr;
	return i2c_add_numbered_adapter(&adapter);
}

static void __exit ambience_test_i2c_exit(void)
{
	i2c_del_adapter(&adapter);
}

module_init(ambience_test_i2c_init);
module_exit(ambience_test_i2c_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only I2C adapter emulating a BH1750 and a TSL2561 (Ambience rig)");
