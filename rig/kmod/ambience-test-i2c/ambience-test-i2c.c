// SPDX-License-Identifier: GPL-2.0
/*
 * ambience-test-i2c: a test-only I2C adapter for Ambience's real-kernel rig.
 *
 * Why it exists: i2c-stub speaks SMBus only, and a BH1750 is read with a plain
 * two-byte read, which i2c-stub refuses. This adapter does real transfers
 * (I2C_FUNC_I2C; the i2c core emulates SMBus on top) and emulates the chips
 * Ambience drives, as their datasheets describe them:
 *
 *   VEML7700 at 0x10 command code 0x00-0x07 selects a 16-bit register, low
 *                    byte first (a write is [code, low, high]); ALS_CONF_0
 *                    ALS_SD, ALS_IT and ALS_GAIN; ALS (0x04) refreshed by
 *                    each integration (25 to 800 ms) while on; ID 0xC481.
 *                    Power-on: ALS_CONF_0 0x0001 (shut down), others 0.
 *   BH1750 at 0x23   one opcode per write; a read returns the data register,
 *                    high byte first; a measurement completes after its
 *                    measurement time (120 ms H-res/H-res2, 16 ms L-res, both
 *                    x MTreg/69), so a driver must wait it out.
 *   TSL2591 at 0x29  command byte 0xA0|reg (CMD, normal transaction; 0xE0|x
 *                    special functions accepted), auto-incrementing; ENABLE
 *                    (PON|AEN runs the ALS), CONTROL (AGAIN, ATIME: 100 to
 *                    600 ms; SRESET), ID 0x50, STATUS (AVALID), C0DATA and
 *                    C1DATA refreshed by each integration, clamped to its full
 *                    scale (37888 at 100 ms, else 65535).
 *   TSL2561 at 0x39  command byte (CMD bit 0x80, register in the low nibble),
 *                    CONTROL, TIMING, ID 0x50 (T/FN/CL rev 0), channel data
 *                    refreshed by each completed integration.
 *   OPT3001 at 0x44  a pointer byte selects a 16-bit register, most significant
 *                    byte first; CONFIGURATION (power-on 0xC810) with RN
 *                    (0b1100: automatic full-scale, a conversion retaken when
 *                    the light outgrew the last range), CT 100/800 ms, M
 *                    (single-shot, continuous), OVF, CRF (cleared by reading or
 *                    writing CONFIGURATION); RESULT exponent and mantissa (lux
 *                    = 0.01 x 2^E x R, no finer than 0.08 lx at 100 ms); LOW
 *                    and HIGH LIMIT; IDs 0x5449 (0x7E) and 0x3001 (0x7F). No
 *                    comparator or INT pin.
 *   A monitor at 0x37 DDC/CI: Get and Set VCP Feature 0x10 (brightness,
 *                    maximum 100) and 0xD6 (power mode, 1 on to 5 off,
 *                    with the quirks of real monitors' power handling),
 *                    other features unsupported; its EDID at 0x50 names
 *                    it "Ambience DDC" (manufacturer AMB, product 0x0037).
 *                    See the section below.
 * (0x29 is a TSL2561 address too: this adapter's TSL2561 is at 0x39 only.)
 *
 * Besides the adapter, a backlight class device, /sys/class/backlight/
 * ambience-test (raw, 0 to 255, and bl_power), as a Touch Display's backlight
 * is.
 *
 * Knobs, in /sys/module/ambience_test_i2c/parameters/:
 *   CHIP_present                     1 plugged in, 0 unplugged: every transfer
 *                                    to the chip NACKs (-ENXIO). Plugging back
 *                                    in is a power-on reset, as on real
 *                                    hardware. CHIP: bh1750, tsl2561,
 *                                    veml7700, tsl2591, opt3001, ddc (the
 *                                    monitor: 0x37 and 0x50 together, as
 *                                    when its HDMI cable is pulled).
 *   bh1750_millilux                  the light the BH1750 sees, in millilux
 *   bh1750_counts                    -1 (default): counts follow the light;
 *                                    otherwise every measurement yields these
 *   tsl2561_ch0, tsl2561_ch1         counts each integration yields (clamped
 *                                    to the integration's full scale)
 *   veml7700_millilux                the light as the VEML7700's linear
 *                                    response sees it: 0.0042 lx a count at 2x
 *                                    and 800 ms. Above 1000 lx a real chip
 *                                    reads low (the application note's
 *                                    correction): the rig's veml7700_set_lux
 *                                    runs the correction backwards.
 *   tsl2591_millilux                 the light the TSL2591 sees: counts follow
 *                                    it through ams' lux formula run backwards
 *                                    (counts a lux: ms x gain / 408, gains 1,
 *                                    25, 428, 9876)
 *   tsl2591_infrared_percent         C1 as a share of C0, 0 to 99 (default 30,
 *                                    daylight)
 *   opt3001_millilux                 the light the OPT3001 sees
 *   CHIP_log                         recent write transfers, oldest first, one
 *                                    word per transfer, bytes joined by ':'
 *                                    (e.g. "01 07 10", "80:03 8a"); writing
 *                                    anything clears the log
 *   bh1750_mtreg (read-only)         the MTreg as last written
 *   ddc_brightness                   the monitor's brightness (VCP 0x10) as
 *                                    last set; writable, as its buttons are
 *   ddc_maximum (read-only)          its maximum, 100
 *   ddc_sets (read-only)             Set VCP Feature 0x10 messages taken
 *   ddc_power                        the monitor's power mode (VCP 0xD6): 1
 *                                    on, 2 standby, 3 suspend, 4 off, 5 off
 *                                    as by its power button; default 1.
 *                                    Writable, 1 to 5: writing it is
 *                                    pressing the monitor's power button
 *                                    (the one way to wake it under quirk 1)
 *   ddc_power_sets (read-only)       Set VCP Feature 0xD6 messages taken
 *                                    (any value; none while it is deaf)
 *   ddc_power_quirk                  how the monitor handles its power mode,
 *                                    as real monitors differ (default 0):
 *                                    0 honest: Set D6 1 to 5 sets ddc_power,
 *                                      Get D6 reads it back (other values
 *                                      are counted and ignored);
 *                                    1 deaf when off: while ddc_power is 4
 *                                      or 5, every transfer to 0x37 NACKs
 *                                      (-ENXIO, as an absent device), so no
 *                                      DDC/CI message wakes it, only the
 *                                      button; the EDID at 0x50 still
 *                                      answers (the cable powers it). From
 *                                      2 or 3, Set D6 1 wakes it;
 *                                    2 reads standby for off: Get D6 while
 *                                      ddc_power is 4 or 5 answers 2;
 *                                    3 a read wakes it: any Get VCP while
 *                                      ddc_power is 2 to 5 sets it to 1,
 *                                      after the reply is made (with the
 *                                      old value)
 *   backlight_brightness (read-only) the backlight's brightness as last
 *                                    applied through its class device
 *   backlight_power (read-only)      the backlight's power (bl_power) as last
 *                                    applied: 0 FB_BLANK_UNBLANK (on) to 4
 *                                    FB_BLANK_POWERDOWN (off)
 *   nr (load time only)              -1 (default): the next free bus number;
 *                                    otherwise this one, so that a reload can
 *                                    bring the bus back under another number,
 *                                    as a USB adapter replugged does
 */
#include <linux/backlight.h>
#include <linux/err.h>
#include <linux/i2c.h>
#include <linux/kernel.h>
#include <linux/ktime.h>
#include <linux/math64.h>
#include <linux/module.h>
#include <linux/moduleparam.h>
#include <linux/mutex.h>

#define BH1750_ADDR 0x23
#define TSL2561_ADDR 0x39

/*
 * ELAPSED rounded down to a whole number of PERIODs (both positive): 32-bit Arm
 * has no 64-bit division instruction, and the kernel no libgcc to call.
 */
static s64 whole_periods(s64 elapsed, s64 period)
{
	return div64_s64(elapsed, period) * period;
}

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
					whole_periods(elapsed_us, duration_us));
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
	tsl.start = ktime_add_ms(tsl.start, whole_periods(elapsed_ms, ms));
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

/*
 * ---- Continuous integration (VEML7700, TSL2591) ----
 *
 * Once switched on, these chips integrate without pause, one integration after
 * another. A new timing or gain applies from the next integration: the one
 * under way finishes with the settings it started with.
 */

struct integration {
	ktime_t start;		/* when the integration under way began */
	u16 setting;		/* the configuration it runs with */
};

static void integration_restart(struct integration *it, u16 setting)
{
	it->start = ktime_get();
	it->setting = setting;
}

/*
 * Moves on to now with current as the configuration register; duration_us()
 * gives an integration's length for a configuration (0: it does not
 * integrate). True when an integration ended since the last call; *used is
 * then the configuration of the last one that ended.
 */
static bool integration_complete(struct integration *it, u16 current_setting,
				 unsigned int (*duration_us)(u16), u16 *used)
{
	unsigned int first = duration_us(it->setting), next;
	s64 elapsed_us = ktime_us_delta(ktime_get(), it->start);

	if (!first || elapsed_us < first)
		return false;
	*used = it->setting;
	it->start = ktime_add_us(it->start, first);
	elapsed_us -= first;
	it->setting = current_setting;
	next = duration_us(current_setting);
	if (next && elapsed_us >= next) {
		*used = current_setting;
		it->start = ktime_add_us(it->start,
					 whole_periods(elapsed_us, next));
	}
	return true;
}

/* ---- VEML7700 ---- */

#define VEML7700_ADDR 0x10
#define VEML_CONF 0x0
#define VEML_ALS 0x4
#define VEML_WHITE 0x5
#define VEML_ID 0x7
#define VEML_SHUT_DOWN 0x0001

static struct {
	u16 regs[8];
	u8 selected;
	struct integration integration;
} veml;

static bool veml7700_present = true;
static int veml7700_millilux = 100000;
module_param(veml7700_millilux, int, 0644);
static struct write_log veml7700_log;
module_param_cb(veml7700_log, &log_ops, &veml7700_log, 0644);

static void veml7700_power_on_reset(void)
{
	memset(veml.regs, 0, sizeof(veml.regs));
	veml.regs[VEML_CONF] = VEML_SHUT_DOWN;
	veml.regs[VEML_ID] = 0xc481;	/* device 0x81, address option 0xC4 */
	veml.selected = 0;
	integration_restart(&veml.integration, veml.regs[VEML_CONF]);
}

/* ALS_IT, bits 9:6, is not in order of time; undefined codes integrate nothing. */
static unsigned int veml7700_integration_us(u16 conf)
{
	switch (conf >> 6 & 0xf) {
	case 0xc: return 25000;
	case 0x8: return 50000;
	case 0x0: return 100000;
	case 0x1: return 200000;
	case 0x2: return 400000;
	case 0x3: return 800000;
	default: return 0;
	}
}

/* ALS_GAIN, bits 12:11, in eighths: 1x, 2x, 1/8, 1/4. */
static unsigned int veml7700_gain_eighths(u16 conf)
{
	static const unsigned int eighths[] = { 8, 16, 1, 2 };

	return eighths[conf >> 11 & 0x3];
}

/*
 * 0.0042 lx a count at gain 2x and 800 ms, inversely proportional to gain and
 * integration time: counts = millilux x eighths x ms / 53760.
 */
static u16 veml7700_counts(u16 conf)
{
	u64 counts = div_u64((u64)max(veml7700_millilux, 0) *
			     veml7700_gain_eighths(conf) *
			     (veml7700_integration_us(conf) / 1000), 53760);

	return min_t(u64, counts, 0xffff);
}

static void veml7700_integrate(void)
{
	u16 used, counts;

	if (veml.regs[VEML_CONF] & VEML_SHUT_DOWN)
		return;
	if (!integration_complete(&veml.integration, veml.regs[VEML_CONF],
				  veml7700_integration_us, &used))
		return;
	counts = veml7700_counts(used);
	veml.regs[VEML_ALS] = counts;
	/* WHITE sees more of the spectrum; nothing reads it. */
	veml.regs[VEML_WHITE] = min_t(u32, counts * 3 / 2, 0xffff);
}

static void veml7700_write_register(unsigned int reg, u16 value)
{
	bool was_shut_down = veml.regs[VEML_CONF] & VEML_SHUT_DOWN;

	if (reg > 0x3)
		return;		/* read-only */
	veml.regs[reg] = value;
	if (reg == VEML_CONF && was_shut_down && !(value & VEML_SHUT_DOWN))
		integration_restart(&veml.integration, value);
}

/* A command code alone selects a register; with a word, low byte first, writes it. */
static int veml7700_transfer(struct i2c_msg *msg)
{
	u16 value;
	int i;

	veml7700_integrate();
	if (msg->flags & I2C_M_RD) {
		value = veml.regs[veml.selected];
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = i == 0 ? value & 0xff :
				      i == 1 ? value >> 8 : 0xff;
		return 0;
	}
	if (!msg->len)
		return 0;
	log_write(&veml7700_log, msg->buf, msg->len);
	if (msg->buf[0] > 0x7 || (msg->len != 1 && msg->len != 3))
		return -EREMOTEIO;	/* no such command code; registers take a word */
	veml.selected = msg->buf[0];
	if (msg->len == 3)
		veml7700_write_register(veml.selected,
					msg->buf[1] | msg->buf[2] << 8);
	return 0;
}

/* ---- TSL2591 ---- */

#define TSL2591_ADDR 0x29
#define TSL2591_ENABLE 0x00
#define TSL2591_CONTROL 0x01
#define TSL2591_ID 0x12
#define TSL2591_STATUS 0x13
#define TSL2591_C0DATA 0x14
#define TSL2591_PON_AEN 0x03
#define TSL2591_AVALID 0x01

static struct {
	u8 regs[0x20];
	u8 selected;
	struct integration integration;
} tsl2591;

static bool tsl2591_present = true;
static int tsl2591_millilux = 100000;
module_param(tsl2591_millilux, int, 0644);
static int tsl2591_infrared_percent = 30;
module_param(tsl2591_infrared_percent, int, 0644);
static struct write_log tsl2591_log;
module_param_cb(tsl2591_log, &log_ops, &tsl2591_log, 0644);

static void tsl2591_power_on_reset(void)
{
	memset(tsl2591.regs, 0, sizeof(tsl2591.regs));
	tsl2591.regs[TSL2591_ID] = 0x50;	/* CONTROL 0x00: gain 1x, 100 ms */
	tsl2591.selected = 0;
	integration_restart(&tsl2591.integration, 0);
}

static bool tsl2591_running(void)
{
	return (tsl2591.regs[TSL2591_ENABLE] & TSL2591_PON_AEN) == TSL2591_PON_AEN;
}

/* ATIME, CONTROL bits 2:0: (ATIME + 1) x 100 ms; 6 and 7 are reserved. */
static unsigned int tsl2591_integration_us(u16 control)
{
	unsigned int atime = control & 0x7;

	return atime <= 5 ? (atime + 1) * 100000 : 0;
}

static void tsl2591_store(unsigned int reg, u64 counts, u16 full_scale)
{
	counts = min_t(u64, counts, full_scale);
	tsl2591.regs[reg] = counts & 0xff;
	tsl2591.regs[reg + 1] = counts >> 8;
}

/*
 * ams' lux formula run backwards: lux = (C0 - C1)(1 - C1/C0) / CPL with
 * CPL = ms x gain / 408 (gains 1, 25, 428, 9876), so for C1 = r C0,
 * C0 = lux x CPL / (1 - r)^2.
 */
static void tsl2591_convert(u16 control)
{
	static const u64 gains[] = { 1, 25, 428, 9876 };
	unsigned int ms = tsl2591_integration_us(control) / 1000;
	unsigned int percent = clamp(tsl2591_infrared_percent, 0, 99);
	u16 full_scale = ms == 100 ? 37888 : 65535;
	u64 scaled, channel0;

	scaled = (u64)max(tsl2591_millilux, 0) * ms * gains[control >> 4 & 0x3];
	if (scaled > U64_MAX / 10000)
		channel0 = U64_MAX / 100;	/* far beyond full scale */
	else
		channel0 = div64_u64(scaled * 10000, 408000ULL *
				     (100 - percent) * (100 - percent));
	tsl2591_store(TSL2591_C0DATA, channel0, full_scale);
	tsl2591_store(TSL2591_C0DATA + 2, div_u64(channel0 * percent, 100),
		      full_scale);
	tsl2591.regs[TSL2591_STATUS] |= TSL2591_AVALID;
}

static void tsl2591_integrate(void)
{
	u16 used;

	if (tsl2591_running() &&
	    integration_complete(&tsl2591.integration,
				 tsl2591.regs[TSL2591_CONTROL],
				 tsl2591_integration_us, &used))
		tsl2591_convert(used);
}

static void tsl2591_write_register(unsigned int reg, u8 value)
{
	bool was_running = tsl2591_running();

	switch (reg) {
	case TSL2591_ENABLE:
		tsl2591.regs[reg] = value & 0xd3;
		if (!was_running && tsl2591_running())
			integration_restart(&tsl2591.integration,
					    tsl2591.regs[TSL2591_CONTROL]);
		if (!(value & 0x02))	/* AEN off: no valid data */
			tsl2591.regs[TSL2591_STATUS] &= ~TSL2591_AVALID;
		break;
	case TSL2591_CONTROL:
		if (value & 0x80)	/* SRESET */
			tsl2591_power_on_reset();
		else
			tsl2591.regs[reg] = value & 0x37;
		break;
	case 0x04 ... 0x0c:	/* interrupt thresholds, persistence */
		tsl2591.regs[reg] = value;
		break;
	default:		/* read-only */
		break;
	}
}

/*
 * A command byte first: CMD (0x80) set, TRANSACTION (bits 6:5) 01 selects a
 * register (bits 4:0), which auto-increments; 11 is a special function
 * (interrupt clears: no interrupt state is emulated); 00 and 10 are reserved.
 */
static int tsl2591_transfer(struct i2c_msg *msg)
{
	u8 command;
	int i;

	tsl2591_integrate();
	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = tsl2591.regs[tsl2591.selected++ & 0x1f];
		return 0;
	}
	if (!msg->len)
		return 0;
	log_write(&tsl2591_log, msg->buf, msg->len);
	command = msg->buf[0];
	if (!(command & 0x80))
		return -EREMOTEIO;
	switch (command >> 5 & 0x3) {
	case 0x1:
		tsl2591.selected = command & 0x1f;
		for (i = 1; i < msg->len; i++)
			tsl2591_write_register(tsl2591.selected++ & 0x1f,
					       msg->buf[i]);
		return 0;
	case 0x3:
		return msg->len == 1 ? 0 : -EREMOTEIO;
	default:
		return -EREMOTEIO;
	}
}

/* ---- OPT3001 ---- */

#define OPT3001_ADDR 0x44
#define OPT_RESULT 0x00
#define OPT_CONFIG 0x01
#define OPT_LOW_LIMIT 0x02
#define OPT_HIGH_LIMIT 0x03
#define OPT_MANUFACTURER_ID 0x7e
#define OPT_DEVICE_ID 0x7f
#define OPT_RN_AUTOMATIC 0xc
#define OPT_CT_800MS 0x0800
#define OPT_MODE 0x0600
#define OPT_MODE_SINGLE_SHOT 0x0200
#define OPT_OVF 0x0100
#define OPT_CRF 0x0080
#define OPT_FLAGS 0x0060	/* FH and FL: read-only, no comparator emulated */

static struct {
	u16 config;
	u16 result;
	u16 low_limit;
	u16 high_limit;
	u8 pointer;
	ktime_t start;		/* when the conversion under way began */
	bool retaking;		/* the conversion under way was aborted and retaken */
	u8 last_exponent;	/* the range automatic full-scale last chose */
} opt;

static bool opt3001_present = true;
static int opt3001_millilux = 100000;
module_param(opt3001_millilux, int, 0644);
static struct write_log opt3001_log;
module_param_cb(opt3001_log, &log_ops, &opt3001_log, 0644);

static void opt3001_power_on_reset(void)
{
	opt.config = 0xc810;	/* automatic range, 800 ms, shut down, latched */
	opt.result = 0;
	opt.low_limit = 0;
	opt.high_limit = 0xbfff;
	opt.pointer = 0;
	opt.retaking = false;
	opt.last_exponent = 0;
}

/* 0.01 lx x 2^E a count: in millilux, 10 << E. */
static u64 opt3001_millilux_per_count(unsigned int exponent)
{
	return 10ULL << exponent;
}

/* The most sensitive range whose 4095 counts hold the light; 11 beyond that. */
static unsigned int opt3001_fitting_exponent(u64 millilux)
{
	unsigned int exponent;

	for (exponent = 0; exponent < 11; exponent++)
		if (millilux <= opt3001_millilux_per_count(exponent) * 4095)
			break;
	return exponent;
}

/* At 100 ms the result is no finer than 0.08 lx, whatever the range. */
static void opt3001_store(u64 millilux, unsigned int exponent)
{
	u64 unit = opt3001_millilux_per_count(exponent);
	u64 counts = div64_u64(millilux, unit);

	if (!(opt.config & OPT_CT_800MS) && unit < 80)
		counts = div64_u64(millilux, 80) * div64_u64(80, unit);
	opt.result = exponent << 12 | min_t(u64, counts, 0xfff);
	opt.config &= ~OPT_OVF;
	opt.config |= (counts > 0xfff ? OPT_OVF : 0) | OPT_CRF;
}

/*
 * Completes the conversions that ended by now. With automatic full-scale,
 * light that outgrew the previous conversion's range aborts the conversion,
 * which is taken again in a range that holds it: it ends a conversion later.
 */
static void opt3001_convert(void)
{
	unsigned int duration_us = opt.config & OPT_CT_800MS ? 800000 : 100000;
	u64 millilux = max(opt3001_millilux, 0);
	unsigned int exponent, rn;
	s64 elapsed_us;

	if (!(opt.config & OPT_MODE))
		return;
	elapsed_us = ktime_us_delta(ktime_get(), opt.start);
	if (elapsed_us > 4LL * duration_us)	/* only the last few can matter */
		opt.start = ktime_add_us(opt.start,
					 whole_periods(elapsed_us, duration_us) -
					 2LL * duration_us);
	while ((opt.config & OPT_MODE) &&
	       ktime_us_delta(ktime_get(), opt.start) >= duration_us) {
		opt.start = ktime_add_us(opt.start, duration_us);
		rn = opt.config >> 12;
		if (rn == OPT_RN_AUTOMATIC) {
			exponent = opt3001_fitting_exponent(millilux);
			if (exponent > opt.last_exponent && !opt.retaking) {
				opt.retaking = true;
				opt.last_exponent = exponent;
				continue;
			}
			opt.last_exponent = exponent;
		} else {
			exponent = min(rn, 11U);
		}
		opt.retaking = false;
		opt3001_store(millilux, exponent);
		if ((opt.config & OPT_MODE) == OPT_MODE_SINGLE_SHOT)
			opt.config &= ~OPT_MODE;
	}
}

static u16 opt3001_read_register(u8 pointer)
{
	u16 value;

	switch (pointer) {
	case OPT_RESULT:
		return opt.result;
	case OPT_CONFIG:
		value = opt.config;
		opt.config &= ~OPT_CRF;	/* a read clears CRF */
		return value;
	case OPT_LOW_LIMIT:
		return opt.low_limit;
	case OPT_HIGH_LIMIT:
		return opt.high_limit;
	case OPT_MANUFACTURER_ID:
		return 0x5449;	/* "TI" */
	case OPT_DEVICE_ID:
		return 0x3001;
	default:
		return 0xffff;
	}
}

static void opt3001_write_register(u8 pointer, u16 value)
{
	switch (pointer) {
	case OPT_CONFIG:
		/* OVF, CRF, FH and FL are read-only; a write clears CRF. */
		opt.config = (value & ~(OPT_OVF | OPT_CRF | OPT_FLAGS)) |
			     (opt.config & OPT_FLAGS);
		if (opt.config & OPT_MODE) {	/* a conversion starts at once */
			opt.start = ktime_get();
			opt.retaking = false;
		}
		break;
	case OPT_LOW_LIMIT:
		opt.low_limit = value;
		break;
	case OPT_HIGH_LIMIT:
		opt.high_limit = value;
		break;
	default:		/* read-only */
		break;
	}
}

/* A pointer byte, then optionally a word, most significant byte first. */
static int opt3001_transfer(struct i2c_msg *msg)
{
	u16 value;
	int i;

	opt3001_convert();
	if (msg->flags & I2C_M_RD) {
		value = opt3001_read_register(opt.pointer);
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = i % 2 ? value & 0xff : value >> 8;
		return 0;
	}
	if (!msg->len)
		return 0;
	log_write(&opt3001_log, msg->buf, msg->len);
	if (msg->len != 1 && msg->len != 3)
		return -EREMOTEIO;	/* registers take a word */
	opt.pointer = msg->buf[0];
	if (msg->len == 3)
		opt3001_write_register(opt.pointer,
				       msg->buf[1] << 8 | msg->buf[2]);
	return 0;
}

/*
 * ---- A DDC/CI monitor at 0x37, its EDID at 0x50 ----
 *
 * DDC/CI (VESA DDC/CI 1.1): a host message is [0x51, 0x80 | n, n payload bytes,
 * checksum], the checksum the XOR of 0x6E (the monitor's write address) and
 * every byte before it. Get VCP Feature (payload 01 CODE) readies a reply
 * [0x6E, 0x88, 02, result, CODE, type, max hi, max lo, cur hi, cur lo,
 * checksum], its checksum XORing 0x50 and every byte before it; result 01 for
 * any feature but 0x10 and 0xD6. Set VCP Feature (03 10 HI LO) sets the
 * brightness, clamped to the maximum. A read with no reply ready, or after a
 * message this monitor does not know, is the null message [0x6E, 0x80, 0xBE].
 * The standard's delays (40 ms before a reply is read, 50 ms between messages)
 * are the host's to keep; the monitor does not check them. The brightness is
 * kept across unplugging, as monitors store it.
 *
 * Power mode, VCP 0xD6 (MCCS, non-continuous): 1 on, 2 standby, 3 suspend,
 * 4 off, 5 off as the power button turns it off. Set VCP Feature (03 D6 00 v)
 * takes v from 1 to 5 and ignores others; Get VCP Feature replies type 00,
 * maximum 5 (MH ML, as MCCS non-continuous features give the number of
 * values), the mode in SH SL. ddc_power_quirk picks how the monitor handles
 * it (see the knobs above): honest, deaf at 0x37 while off, reading standby
 * for off, or woken by any Get VCP. The mode is kept across unplugging, as a
 * monitor's power state is its own.
 */

#define DDC_ADDR 0x37
#define EDID_ADDR 0x50
#define DDC_HOST_SOURCE 0x51
#define DDC_MONITOR_ADDRESS 0x6e
#define DDC_REPLY_DESTINATION 0x50
#define DDC_BRIGHTNESS 0x10
#define DDC_POWER_MODE 0xd6
#define DDC_POWER_ON 1
#define DDC_POWER_STANDBY 2
#define DDC_POWER_OFF 4
#define DDC_POWER_MODES 5	/* 5: off as by the power button */
#define DDC_QUIRK_HONEST 0
#define DDC_QUIRK_DEAF_WHEN_OFF 1
#define DDC_QUIRK_READS_STANDBY_FOR_OFF 2
#define DDC_QUIRK_A_READ_WAKES_IT 3
#define DDC_REPLY_BYTES 11
#define EDID_BYTES 128

static struct {
	u8 reply[DDC_REPLY_BYTES];
	unsigned int reply_length;	/* 0: nothing ready, the null message */
	u8 edid_offset;
	u8 edid[EDID_BYTES];
} ddc;

static bool ddc_present = true;
static int ddc_brightness = 50;
module_param(ddc_brightness, int, 0644);
static int ddc_maximum = 100;
module_param(ddc_maximum, int, 0444);
static unsigned int ddc_sets;
module_param(ddc_sets, uint, 0444);
static int ddc_power = DDC_POWER_ON;
static unsigned int ddc_power_sets;
module_param(ddc_power_sets, uint, 0444);
static int ddc_power_quirk = DDC_QUIRK_HONEST;

/* An int knob that takes LOW to HIGH only (-EINVAL otherwise), under the lock. */
static int ddc_set_in_range(const char *val, const struct kernel_param *kp,
			    int low, int high)
{
	int value, err;

	err = kstrtoint(val, 0, &value);
	if (err)
		return err;
	if (value < low || value > high)
		return -EINVAL;
	mutex_lock(&chips_lock);
	*(int *)kp->arg = value;
	mutex_unlock(&chips_lock);
	return 0;
}

/* Writing ddc_power is pressing the monitor's power button. */
static int ddc_power_set(const char *val, const struct kernel_param *kp)
{
	return ddc_set_in_range(val, kp, DDC_POWER_ON, DDC_POWER_MODES);
}

static int ddc_power_quirk_set(const char *val, const struct kernel_param *kp)
{
	return ddc_set_in_range(val, kp, DDC_QUIRK_HONEST,
				DDC_QUIRK_A_READ_WAKES_IT);
}

static const struct kernel_param_ops ddc_power_ops = {
	.set = ddc_power_set,
	.get = param_get_int,
};

static const struct kernel_param_ops ddc_power_quirk_ops = {
	.set = ddc_power_quirk_set,
	.get = param_get_int,
};
module_param_cb(ddc_power, &ddc_power_ops, &ddc_power, 0644);
module_param_cb(ddc_power_quirk, &ddc_power_quirk_ops, &ddc_power_quirk, 0644);

/* Off (4 or 5), as quirks 1 and 2 tell it from standby and suspend. */
static bool ddc_power_off(void)
{
	return ddc_power >= DDC_POWER_OFF;
}

static u8 ddc_checksum(u8 seed, const u8 *bytes, unsigned int length)
{
	while (length--)
		seed ^= *bytes++;
	return seed;
}

/* A base block with no timings: header, "AMB" 0x0037, one name descriptor. */
static void edid_make(void)
{
	static const u8 header[] = { 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0 };
	static const char name[] = "Ambience DDC";
	u16 id = ('A' - '@') << 10 | ('M' - '@') << 5 | ('B' - '@');
	unsigned int i;
	u8 sum = 0;
	u8 *e = ddc.edid;

	memset(e, 0, EDID_BYTES);
	memcpy(e, header, sizeof(header));
	e[8] = id >> 8;
	e[9] = id & 0xff;
	e[10] = 0x37;		/* product code, little-endian */
	e[12] = 1;		/* serial number */
	e[16] = 1;		/* week, year 2024, version 1.4 */
	e[17] = 34;
	e[18] = 1;
	e[19] = 4;
	e[20] = 0x80;		/* digital input */
	e[23] = 120;		/* gamma 2.2 */
	e[24] = 0x0a;
	/* Descriptor 1 (offset 54): monitor name, ended by a line feed, padded. */
	e[54 + 3] = 0xfc;
	memset(e + 54 + 5, 0x20, 13);
	memcpy(e + 54 + 5, name, sizeof(name) - 1);
	e[54 + 5 + sizeof(name) - 1] = 0x0a;
	for (i = 72; i < 126; i += 18)
		e[i + 3] = 0x10;	/* dummy descriptors */
	for (i = 0; i < EDID_BYTES - 1; i++)
		sum += e[i];
	e[EDID_BYTES - 1] = -sum;
}

static void ddc_power_on_reset(void)
{
	ddc.reply_length = 0;
	ddc.edid_offset = 0;
}

static void ddc_get_reply(u8 code)
{
	u16 maximum = clamp(ddc_maximum, 0, 0xffff);
	u16 value = clamp(ddc_brightness, 0, 0xffff);
	bool supported = code == DDC_BRIGHTNESS;
	u8 *r = ddc.reply;

	if (code == DDC_POWER_MODE) {
		supported = true;
		maximum = DDC_POWER_MODES;
		value = ddc_power;
		if (ddc_power_quirk == DDC_QUIRK_READS_STANDBY_FOR_OFF &&
		    ddc_power_off())
			value = DDC_POWER_STANDBY;
	}
	r[0] = DDC_MONITOR_ADDRESS;
	r[1] = 0x88;
	r[2] = 0x02;
	r[3] = supported ? 0x00 : 0x01;
	r[4] = code;
	r[5] = 0x00;		/* a set parameter, not momentary */
	r[6] = maximum >> 8;
	r[7] = maximum & 0xff;
	r[8] = value >> 8;
	r[9] = value & 0xff;
	r[10] = ddc_checksum(DDC_REPLY_DESTINATION, r, 10);
	ddc.reply_length = DDC_REPLY_BYTES;
	if (ddc_power_quirk == DDC_QUIRK_A_READ_WAKES_IT &&
	    ddc_power != DDC_POWER_ON)
		ddc_power = DDC_POWER_ON;
}

static void ddc_message(const u8 *m, unsigned int length)
{
	unsigned int n, value;

	ddc.reply_length = 0;
	if (length < 3 || m[0] != DDC_HOST_SOURCE || !(m[1] & 0x80))
		return;
	n = m[1] & 0x7f;
	if (length < n + 3 ||
	    m[n + 2] != ddc_checksum(DDC_MONITOR_ADDRESS, m, n + 2))
		return;
	if (n == 2 && m[2] == 0x01) {
		ddc_get_reply(m[3]);
	} else if (n == 4 && m[2] == 0x03 && m[3] == DDC_BRIGHTNESS) {
		ddc_brightness = min(m[4] << 8 | m[5], ddc_maximum);
		ddc_sets++;
	} else if (n == 4 && m[2] == 0x03 && m[3] == DDC_POWER_MODE) {
		value = m[4] << 8 | m[5];
		if (value >= DDC_POWER_ON && value <= DDC_POWER_MODES)
			ddc_power = value;
		ddc_power_sets++;
	}
}

static int ddc_transfer(struct i2c_msg *msg)
{
	static const u8 null_message[] = { DDC_MONITOR_ADDRESS, 0x80, 0xbe };
	const u8 *source = ddc.reply_length ? ddc.reply : null_message;
	unsigned int length = ddc.reply_length ? ddc.reply_length : sizeof(null_message);
	int i;

	/* Quirk 1, off: 0x37 NACKs as if absent; the EDID at 0x50 still answers. */
	if (ddc_power_quirk == DDC_QUIRK_DEAF_WHEN_OFF && ddc_power_off())
		return -ENXIO;
	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = i < length ? source[i] : 0;
		ddc.reply_length = 0;
		return 0;
	}
	ddc_message(msg->buf, msg->len);
	return 0;
}

/* A write sets the offset (its first byte); reads run on from it, wrapping. */
static int edid_transfer(struct i2c_msg *msg)
{
	int i;

	if (msg->flags & I2C_M_RD) {
		for (i = 0; i < msg->len; i++)
			msg->buf[i] = ddc.edid[ddc.edid_offset++ % EDID_BYTES];
		return 0;
	}
	if (msg->len)
		ddc.edid_offset = msg->buf[0];
	return 0;
}

/*
 * ---- A backlight class device ----
 *
 * /sys/class/backlight/ambience-test (BACKLIGHT_RAW, 0 to 255): what a
 * Raspberry Pi Touch Display's rpi_backlight is to a driver. The brightness
 * last applied is also the read-only knob backlight_brightness, and the power
 * (bl_power: 0 FB_BLANK_UNBLANK to 4 FB_BLANK_POWERDOWN) backlight_power. The
 * brightness is recorded as set, whatever the power (the knobs are what the
 * class handed the driver).
 */

#define BACKLIGHT_NAME "ambience-test"
#define BACKLIGHT_MAX 255

static struct backlight_device *backlight;
static int backlight_brightness = 128;
module_param(backlight_brightness, int, 0444);
static int backlight_power;	/* FB_BLANK_UNBLANK, as registered */
module_param(backlight_power, int, 0444);

static int backlight_update(struct backlight_device *device)
{
	backlight_brightness = device->props.brightness;
	backlight_power = device->props.power;
	return 0;
}

static int backlight_read(struct backlight_device *device)
{
	return backlight_brightness;
}

static const struct backlight_ops backlight_ops = {
	.update_status = backlight_update,
	.get_brightness = backlight_read,
};

static int backlight_add(void)
{
	struct backlight_properties props = {
		.type = BACKLIGHT_RAW,
		.max_brightness = BACKLIGHT_MAX,
		.brightness = 128,
	};

	backlight = backlight_device_register(BACKLIGHT_NAME, NULL, NULL,
					      &backlight_ops, &props);
	return PTR_ERR_OR_ZERO(backlight);
}

/* ---- The chips, and their presence: unplugging NACKs, plugging back in resets. ---- */

static const struct chip {
	u16 address;
	bool *present;
	void (*power_on_reset)(void);
	int (*transfer)(struct i2c_msg *msg);
} chips[] = {
	{ VEML7700_ADDR, &veml7700_present, veml7700_power_on_reset, veml7700_transfer },
	{ BH1750_ADDR, &bh1750_present, bh1750_power_on_reset, bh1750_transfer },
	{ TSL2591_ADDR, &tsl2591_present, tsl2591_power_on_reset, tsl2591_transfer },
	{ TSL2561_ADDR, &tsl2561_present, tsl2561_power_on_reset, tsl2561_transfer },
	{ OPT3001_ADDR, &opt3001_present, opt3001_power_on_reset, opt3001_transfer },
	{ DDC_ADDR, &ddc_present, ddc_power_on_reset, ddc_transfer },
	{ EDID_ADDR, &ddc_present, ddc_power_on_reset, edid_transfer },
};

static int present_set(const char *val, const struct kernel_param *kp)
{
	bool *present = kp->arg;
	bool was_present;
	unsigned int i;
	int err;

	mutex_lock(&chips_lock);
	was_present = *present;
	err = param_set_bool(val, kp);
	for (i = 0; i < ARRAY_SIZE(chips); i++)
		if (!err && !was_present && *present && chips[i].present == present)
			chips[i].power_on_reset();
	mutex_unlock(&chips_lock);
	return err;
}

static const struct kernel_param_ops present_ops = {
	.set = present_set,
	.get = param_get_bool,
};
module_param_cb(bh1750_present, &present_ops, &bh1750_present, 0644);
module_param_cb(tsl2561_present, &present_ops, &tsl2561_present, 0644);
module_param_cb(veml7700_present, &present_ops, &veml7700_present, 0644);
module_param_cb(tsl2591_present, &present_ops, &tsl2591_present, 0644);
module_param_cb(opt3001_present, &present_ops, &opt3001_present, 0644);
module_param_cb(ddc_present, &present_ops, &ddc_present, 0644);

/* ---- The adapter ---- */

static int chip_transfer(struct i2c_msg *msg)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(chips); i++)
		if (msg->addr == chips[i].address && *chips[i].present)
			return chips[i].transfer(msg);
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
	unsigned int i;

	int err;

	for (i = 0; i < ARRAY_SIZE(chips); i++)
		chips[i].power_on_reset();
	edid_make();
	err = backlight_add();
	if (err)
		return err;
	if (nr < 0) {
		err = i2c_add_adapter(&adapter);
	} else {
		adapter.nr = nr;
		err = i2c_add_numbered_adapter(&adapter);
	}
	if (err)
		backlight_device_unregister(backlight);
	return err;
}

static void __exit ambience_test_i2c_exit(void)
{
	i2c_del_adapter(&adapter);
	backlight_device_unregister(backlight);
}

module_init(ambience_test_i2c_init);
module_exit(ambience_test_i2c_exit);
MODULE_LICENSE("GPL");
MODULE_DESCRIPTION("Test-only I2C adapter emulating the light sensors and DDC/CI monitor Ambience drives, and a backlight (rig)");
