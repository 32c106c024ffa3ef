import sharp from 'sharp';

/** A poster for the demo: a diagonal gradient between two colours, made with sharp at seed time. */
export async function demoPoster(width: number, height: number, from: [number, number, number], to: [number, number, number], format: 'jpeg' | 'png' = 'jpeg'): Promise<Buffer> {
  const pixels = Buffer.alloc(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const t = (x / width + y / height) / 2;
      const i = (y * width + x) * 3;
      for (let c = 0; c < 3; c++) pixels[i + c] = Math.round(from[c]! + (to[c]! - from[c]!) * t);
    }
  }
  return sharp(pixels, { raw: { width, height, channels: 3 } }).toFormat(format).toBuffer();
}

/** The demo's images: three event posters and a venue photo, small enough to seed in a moment. */
export const DEMO_IMAGES = [
  { name: 'jazz-poster.jpg', width: 960, height: 600, from: [20, 30, 90], to: [200, 120, 40], format: 'jpeg' },
  { name: 'market-poster.jpg', width: 720, height: 480, from: [30, 110, 60], to: [240, 220, 120], format: 'jpeg' },
  { name: 'workshop.png', width: 600, height: 400, from: [90, 20, 70], to: [250, 180, 200], format: 'png' },
  { name: 'venue-hall.jpg', width: 640, height: 427, from: [60, 60, 60], to: [220, 200, 180], format: 'jpeg' },
] as const;
