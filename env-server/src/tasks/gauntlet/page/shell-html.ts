/**
 * The one HTML document every Gauntlet URL serves; the app script decides what it shows. Styles
 * live here so challenge page code stays about behaviour (pruned HTML drops them anyway).
 */
export function shellHtml(challengeCss: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>The Gauntlet</title>
<style>
  body { margin: 0; font: 15px/1.4 system-ui, Arial, sans-serif; color: #1c1c1c; background: #fafafa; }
  header { display: flex; gap: 16px; align-items: baseline; padding: 8px 24px; background: #20304a; color: #fff; }
  header h1 { font-size: 18px; margin: 0; }
  main { padding: 8px 24px 24px; max-width: 980px; }
  h2 { font-size: 18px; margin: 8px 0; }
  form[aria-label="Code entry"] { display: flex; gap: 8px; margin: 8px 0; }
  .revealed { display: inline-block; padding: 6px 10px; margin: 6px 0; border: 2px solid #2a7; background: #eafff2; font-weight: bold; }
  [role="alert"] { color: #a00; margin: 4px 0; }
  /* A fixed-height status line: progress text appearing must not move the puzzle below it. */
  p[aria-label="Puzzle status"] { margin: 4px 0; height: 1.4em; overflow: hidden; white-space: nowrap; text-overflow: ellipsis; }
  .puzzle { position: relative; margin-top: 8px; padding: 12px; border: 1px solid #ccd; background: #fff; min-height: 120px; }
  .grid { display: grid; gap: 8px; }
  .lock { position: relative; z-index: 10; padding: 8px; margin-bottom: 8px; border: 2px solid #c60; background: #fff4e6; }
  .puzzle form label { display: block; margin: 6px 0; }
${challengeCss}
</style>
</head>
<body>
<div id="app"></div>
<script src="/gauntlet/app.js"></script>
</body>
</html>
`;
}
