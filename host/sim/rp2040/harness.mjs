// An emulated Raspberry Pi Pico (rp2040js) with a scanner board on its pins.
//
//   node harness.mjs IMAGE.uf2 BOOTROM.bin
//
// Talks to its driver (lawmaster.host.sim.rp2040.emulator) in JSON lines: commands on
// stdin, events on stdout (nothing else may be written there; diagnostics go to stderr).
//
// Commands:
//   {"op": "board", "select": [2,3,4,5], "bank": [6,7,8,9], "adc_pins": [26],
//    "muxes": 8, "channels": 122, "values": [u16 per channel], "noise": sigma_counts,
//    "seed": n, "settle_ns": ns, "high": [22]}
//        the multiplexer tree behind the ADC pins (as firmware/config.py and wiring.md
//        wire it), each sensor's output in read_u16 counts, Gaussian noise on every
//        conversion, how long a node takes to settle after a select change, and input
//        pins held high (pull-ups are not modelled: GP22, the safe-mode jumper).
//   {"op": "values", "values": [...]}   every sensor's output from now on
//   {"op": "usb", "data": base64}       bytes from the USB host (the Pi) to the Pico
//   {"op": "stats"}                     answer with a "stats" event
//   {"op": "quit"}
//
// Events:
//   {"ev": "connected"}                 USB CDC enumerated
//   {"ev": "usb", "data": base64}       bytes the Pico sent
//   {"ev": "clock", "hz": f, "cycles": n, "ns": t}   clk_sys changed (machine.freq)
//   {"ev": "busy", "on": 0|1, "cycles": n, "ns": t}  the busy pin (GP25) changed
//   {"ev": "stats", ...}                counters, see stats()
//
// Time: each instruction adds rp2040js's Cortex-M0+ cycle estimate, and simulated time
// advances by 1 / clk_sys per cycle, clk_sys as the firmware set it in the PLL and
// CLOCKS registers (rp2040js's own Simulator assumes 125 MHz whatever the firmware sets).
// A core waiting for an interrupt skips to the next alarm.
//
// Two emulator traps handled here (see ../shared/rp2040/README.md):
//  * the USB host holds the device's OUT requests until it has bytes to send, as a real
//    host does (rp2040js answers each with an empty packet after 10 µs: an interrupt storm
//    that more than doubles a scan's time);
//  * pull-ups are not modelled: pins listed in "high" are driven high from outside.

import fs from 'node:fs';
import readline from 'node:readline';
import { RP2040, USBCDC } from 'rp2040js';

const [imagePath, bootromPath] = process.argv.slice(2);

function send(event) {
  process.stdout.write(JSON.stringify(event) + '\n');
}

const quietLogger = {
  debug() {},
  info() {},
  warn(component, message) {
    process.stderr.write(`[${component}] ${message}\n`);
  },
  error(component, message) {
    process.stderr.write(`[${component}] ${message}\n`);
  },
};

const mcu = new RP2040();
mcu.logger = quietLogger;

// -- boot: the mask ROM, then the UF2's blocks into flash --------------------------------
const rom = fs.readFileSync(bootromPath);
mcu.loadBootrom(new Uint32Array(rom.buffer, rom.byteOffset, rom.length / 4));
const uf2 = fs.readFileSync(imagePath);
for (let offset = 0; offset + 512 <= uf2.length; offset += 512) {
  const block = uf2.subarray(offset, offset + 512);
  const word = (i) => block.readUInt32LE(i);
  if (word(0) !== 0x0a324655 || word(4) !== 0x9e5d5157 || word(508) !== 0x0ab16f30) {
    throw new Error(`UF2 block at ${offset} has no magic`);
  }
  const address = word(12);
  const size = word(16);
  mcu.flash.set(block.subarray(32, 32 + size), address - 0x10000000);
}
mcu.core.PC = 0x10000000;

// -- USB: the host side of the CDC link --------------------------------------------------
const usb = mcu.usbCtrl;
const cdc = new USBCDC(usb);
const toDevice = []; // bytes from the host, not yet asked for
let heldRead = null; // an OUT request the host holds until it has data
const counters = { outRequests: 0, heldReads: 0, adcReads: 0, unsettled: 0, bytesIn: 0, bytesOut: 0 };

function answerRead(endpoint, size) {
  const n = Math.min(size, toDevice.length);
  const chunk = Uint8Array.from(toDevice.splice(0, n));
  counters.bytesIn += n;
  usb.endpointReadDone(endpoint, chunk);
}

usb.onEndpointRead = (endpoint, size) => {
  counters.outRequests++;
  if (endpoint !== cdc.outEndpoint) {
    return;
  }
  if (toDevice.length) {
    answerRead(endpoint, size);
  } else {
    heldRead = { endpoint, size };
    counters.heldReads++;
  }
};
cdc.onDeviceConnected = () => send({ ev: 'connected' });
cdc.onSerialData = (buffer) => {
  counters.bytesOut += buffer.length;
  send({ ev: 'usb', data: Buffer.from(buffer).toString('base64') });
};

// -- the scanner board: multiplexers and sensors ------------------------------------------
let board = null;
let lastSelectChangeNs = -1e18;
let random = mulberry32(1);

function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function gaussian() {
  const u = 1 - random();
  const v = random();
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
}

function bits(pins) {
  let value = 0;
  pins.forEach((pin, i) => {
    if (mcu.gpio[pin].outputValue) value |= 1 << i;
  });
  return value;
}

function connectedChannel(adcIndex) {
  // Channel c is input c % 16 of first-level mux c // 16; mux m is input m % banks of the
  // second-level mux on ADC pin m // banks (firmware/config.py, hardware/electronics/tree.py).
  const inputs = 1 << board.select.length;
  const banks = 1 << board.bank.length;
  const mux = adcIndex * banks + (board.bank.length ? bits(board.bank) : 0);
  if (mux >= board.muxes) return null;
  const channel = mux * inputs + bits(board.select);
  return channel < board.channels ? channel : null;
}

let previousReading = 0;
mcu.adc.onADCRead = (adcChannel) => {
  counters.adcReads++;
  let value = 0; // unfitted inputs are tied to GND
  const adcIndex = board ? board.adc_pins.indexOf(26 + adcChannel) : -1;
  if (adcIndex >= 0) {
    const channel = connectedChannel(adcIndex);
    if (channel !== null) {
      value = board.values[channel] + board.noise * gaussian();
    }
    if (mcu.clock.nanos - lastSelectChangeNs < board.settle_ns) {
      // Sampled before the nodes settled: the ADC still sees the last node voltage.
      counters.unsettled++;
      value = previousReading;
    }
  }
  previousReading = value;
  const v12 = Math.max(0, Math.min(4095, Math.round(value / 16)));
  mcu.adc.channelValues[adcChannel] = v12;
  mcu.adc.currentChannel = adcChannel;
  mcu.adc.sampleAlarm.schedule(mcu.adc.sampleTime * 1000);
};

function watchSelectLines() {
  for (const pin of [...board.select, ...board.bank]) {
    mcu.gpio[pin].addListener(() => {
      lastSelectChangeNs = mcu.clock.nanos;
    });
  }
}

// GP25, the Pico's LED: the firmware lights it while it scans and sends (the busy pin).
mcu.gpio[25].addListener((state) => {
  send({ ev: 'busy', on: state === 1 ? 1 : 0, cycles: mcu.core.cycles, ns: mcu.clock.nanos });
});

let clkSys = mcu.clkSys;
mcu.addClockListener((hz) => {
  clkSys = hz;
  send({ ev: 'clock', hz, cycles: mcu.core.cycles, ns: mcu.clock.nanos });
});

// -- commands -----------------------------------------------------------------------------
function stats() {
  return {
    ev: 'stats',
    cycles: mcu.core.cycles,
    ns: mcu.clock.nanos,
    hz: clkSys,
    ...counters,
  };
}

const commands = readline.createInterface({ input: process.stdin });
commands.on('line', (line) => {
  if (!line.trim()) return;
  const command = JSON.parse(line);
  switch (command.op) {
    case 'board':
      board = {
        select: command.select,
        bank: command.bank,
        adc_pins: command.adc_pins,
        muxes: command.muxes,
        channels: command.channels,
        values: command.values,
        noise: command.noise || 0,
        settle_ns: command.settle_ns || 0,
      };
      random = mulberry32(command.seed || 1);
      for (const pin of command.high || []) mcu.gpio[pin].setInputValue(true);
      watchSelectLines();
      break;
    case 'values':
      board.values = command.values;
      break;
    case 'usb':
      toDevice.push(...Buffer.from(command.data, 'base64'));
      if (heldRead && toDevice.length) {
        const { endpoint, size } = heldRead;
        heldRead = null;
        answerRead(endpoint, size);
      }
      break;
    case 'stats':
      send(stats());
      break;
    case 'quit':
      process.exit(0);
      break;
    default:
      process.stderr.write(`unknown command ${command.op}\n`);
  }
  wake();
});
commands.on('close', () => process.exit(0));

// -- the run loop ---------------------------------------------------------------------------
// Batches of instructions, yielding to Node's event loop between them so commands get in.
const BATCH_MS = 20;
let idle = false;

function run() {
  const core = mcu.core;
  const clock = mcu.clock;
  const until = Date.now() + BATCH_MS;
  idle = false;
  while (Date.now() < until) {
    for (let i = 0; i < 20000; i++) {
      if (core.waiting) {
        const skip = clock.nanosToNextAlarm;
        if (skip <= 0) {
          // Nothing scheduled: sleep until the driver sends something.
          idle = true;
          return;
        }
        clock.tick(skip);
      } else {
        const cycles = core.executeInstruction();
        clock.tick((cycles * 1e9) / clkSys);
      }
    }
  }
  setImmediate(run);
}

function wake() {
  if (idle) {
    idle = false;
    setImmediate(run);
  }
}

setImmediate(run);
