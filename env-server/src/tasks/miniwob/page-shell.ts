/**
 * The frame every task page shares, as in MiniWoB: a 160×210 px box with the goal (`#query`) on
 * top and the task area (`#area`) below. The task script only registers its render function;
 * `core.js` draws it on `reset(seed)`, so a page load alone shows an empty area.
 */
export function taskPageHtml(title: string, taskScript: string): string {
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${title}</title>
<style>
  body { margin: 0; font: 11px Arial, Helvetica, sans-serif; }
  #wrap { width: 160px; height: 210px; overflow: hidden; }
  #query { height: 50px; box-sizing: border-box; padding: 3px; background: #ff0; }
  #area { position: relative; height: 160px; overflow: hidden; }
  #area button, #area input { font: inherit; }
  #area input { width: 120px; box-sizing: border-box; }
</style>
<script src="/miniwob/core.js"></script>
</head>
<body>
<div id="wrap"><div id="query"></div><div id="area"></div></div>
<script>
${taskScript.trim()}
</script>
</body>
</html>
`;
}
