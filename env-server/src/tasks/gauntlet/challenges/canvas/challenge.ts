import { defineChallenge } from '../../challenge.js';

interface Params {
  width: number;
  height: number;
  radius: number;
  points: [number, number][];
}

/**
 * Draw one stroke through the marked points in order. The points are stated in canvas pixels
 * and the page states where the canvas sits in the viewport, so a text agent can aim with
 * mouse_down / mouse_move / mouse_up.
 */
export const canvas = defineChallenge<Params>({
  type: 'canvas',
  title: 'Canvas stroke',
  generate(rng) {
    const width = rng.round(360, 480, 20);
    const height = rng.round(160, 220, 20);
    const count = rng.int(3, 4);
    const slot = Math.floor((width - 60) / count);
    const points = Array.from(
      { length: count },
      (_, i) => [30 + i * slot + rng.int(0, slot - 20), rng.int(25, height - 25)] as [number, number],
    );
    return { width, height, radius: 14, points: rng.chance(0.5) ? points.reverse() : points };
  },
  render: (ctx) => {
    const { width, height, radius, points } = ctx.params;
    ctx.instruct(
      `Draw one stroke on the canvas (press, move, release) that passes through the marked points in this order: ${points.map(([x, y]) => `(${x}, ${y})`).join(', ')}. Points are in canvas pixels from its top-left corner; the stroke must pass within ${radius} px of each.`,
    );
    const board = ctx.el('canvas', {
      width,
      height,
      'aria-label': 'Drawing canvas',
      class: 'board',
    }) as HTMLCanvasElement;
    const where = ctx.el('p', { 'aria-label': 'Canvas position' });
    const g = board.getContext('2d')!;
    const paint = (stroke: [number, number][]) => {
      g.clearRect(0, 0, width, height);
      g.font = '12px sans-serif';
      points.forEach(([x, y], i) => {
        g.beginPath();
        g.arc(x, y, radius, 0, 2 * Math.PI);
        g.strokeStyle = '#c33';
        g.stroke();
        g.fillText(String(i + 1), x - 3, y + 4);
      });
      g.beginPath();
      stroke.forEach(([x, y], i) => (i ? g.lineTo(x, y) : g.moveTo(x, y)));
      g.strokeStyle = '#236';
      g.stroke();
    };
    const place = () => {
      const box = board.getBoundingClientRect();
      const text = `The canvas's top-left corner is at x=${Math.round(box.left)}, y=${Math.round(box.top)} in the viewport; it is ${width}×${height} px.`;
      if (where.textContent !== text) where.textContent = text;
    };
    // Segment-to-point distance, so a stroke sampled only at its corners still counts.
    const near = ([ax, ay]: number[], [bx, by]: number[], [px, py]: number[]) => {
      const dx = bx! - ax!,
        dy = by! - ay!;
      const t = dx || dy ? Math.max(0, Math.min(1, ((px! - ax!) * dx + (py! - ay!) * dy) / (dx * dx + dy * dy))) : 0;
      return Math.hypot(ax! + t * dx - px!, ay! + t * dy - py!) <= radius;
    };
    let stroke: [number, number][] | null = null;
    const local = (event: Event): [number, number] => {
      const box = board.getBoundingClientRect();
      return [(event as MouseEvent).clientX - box.left, (event as MouseEvent).clientY - box.top];
    };
    board.addEventListener('mousedown', (event) => {
      stroke = [local(event)];
      paint(stroke);
    });
    ctx.listen(document, 'mousemove', (event) => {
      if (!stroke) return;
      stroke.push(local(event));
      paint(stroke);
    });
    ctx.listen(document, 'mouseup', (event) => {
      if (!stroke) return;
      const path = [...stroke, local(event)];
      stroke = null;
      let hit = 0;
      for (let i = 0; i < path.length && hit < points.length; i++) {
        const from = path[Math.max(0, i - 1)]!;
        while (hit < points.length && near(from, path[i]!, points[hit]!)) hit += 1;
      }
      if (hit === points.length) {
        ctx.say('Stroke accepted.');
        ctx.reveal();
      } else ctx.fail(`The stroke missed point ${hit + 1}; draw it again.`);
    });
    // The position line sits below the canvas, so its own text never moves the canvas.
    ctx.area.append(board, where);
    paint([]);
    place();
    let frame = requestAnimationFrame(function follow() {
      place();
      frame = requestAnimationFrame(follow);
    });
    ctx.onCleanup(() => cancelAnimationFrame(frame));
  },
  css: `.puzzle .board { border: 1px solid #557; background: #fff; cursor: crosshair; }`,
});
