/**
 * The page's sounds: tiny tones made in code with WebAudio (no files). Off by default; the audio
 * context is created on the first "sound on" (a user gesture, as browsers require).
 */
export type Cue = 'buy' | 'scratch' | 'reveal' | 'win' | 'lose';

interface Note {
  frequency: number;
  at: number;
  duration: number;
  type: OscillatorType;
  gain: number;
}

const CUES: { readonly [C in Exclude<Cue, 'scratch'>]: readonly Note[] } = {
  buy: [{ frequency: 660, at: 0, duration: 0.07, type: 'triangle', gain: 0.12 }],
  reveal: [
    { frequency: 880, at: 0, duration: 0.12, type: 'sine', gain: 0.12 },
    { frequency: 1320, at: 0.06, duration: 0.12, type: 'sine', gain: 0.06 },
  ],
  win: [523.25, 659.25, 783.99, 1046.5].map((frequency, index) => ({
    frequency,
    at: index * 0.11,
    duration: 0.16,
    type: 'triangle' as const,
    gain: 0.14,
  })),
  lose: [
    { frequency: 392, at: 0, duration: 0.18, type: 'sine', gain: 0.1 },
    { frequency: 329.63, at: 0.18, duration: 0.26, type: 'sine', gain: 0.1 },
  ],
};

/** At most one scratch rustle this often. */
const SCRATCH_EVERY_MS = 110;

export class Tones {
  private context: AudioContext | undefined;
  private noise: AudioBuffer | undefined;
  private lastScratch = 0;
  private on = false;

  get enabled(): boolean {
    return this.on;
  }

  setEnabled(on: boolean): void {
    this.on = on;
    if (!on) {
      void this.context?.suspend();
      return;
    }
    const Context = globalThis.AudioContext;
    if (!Context) return;
    this.context ??= new Context();
    void this.context.resume();
  }

  play(cue: Cue): void {
    const context = this.context;
    if (!this.on || !context) return;
    if (cue === 'scratch') {
      this.rustle(context);
      return;
    }
    const start = context.currentTime + 0.01;
    for (const note of CUES[cue]) {
      const oscillator = context.createOscillator();
      const gain = context.createGain();
      oscillator.type = note.type;
      oscillator.frequency.value = note.frequency;
      gain.gain.setValueAtTime(0, start + note.at);
      gain.gain.linearRampToValueAtTime(note.gain, start + note.at + 0.01);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + note.at + note.duration);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start + note.at);
      oscillator.stop(start + note.at + note.duration + 0.02);
    }
  }

  /** A short burst of filtered noise: the foil under a coin. */
  private rustle(context: AudioContext): void {
    const now = performance.now();
    if (now - this.lastScratch < SCRATCH_EVERY_MS) return;
    this.lastScratch = now;
    if (!this.noise) {
      const length = Math.floor(context.sampleRate * 0.06);
      this.noise = context.createBuffer(1, length, context.sampleRate);
      const data = this.noise.getChannelData(0);
      for (let i = 0; i < length; i++) data[i] = (Math.random() * 2 - 1) * (1 - i / length);
    }
    const source = context.createBufferSource();
    source.buffer = this.noise;
    const filter = context.createBiquadFilter();
    filter.type = 'highpass';
    filter.frequency.value = 2500;
    const gain = context.createGain();
    gain.gain.value = 0.05;
    source.connect(filter).connect(gain).connect(context.destination);
    source.start();
  }
}
