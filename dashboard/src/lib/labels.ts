/** Labels as the form edits them: one `key=value` per line. */
export function labelsToText(labels: Record<string, string> | undefined): string {
  return Object.entries(labels ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join('\n');
}

/** Lines of `key=value` (or `key: value`) to a label map; a line without a value keeps an empty one. */
export function textToLabels(text: string): Record<string, string> {
  const labels: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const match = line.match(/^([^=:]*)[=:](.*)$/);
    labels[(match ? match[1] : line).trim()] = match ? match[2].trim() : '';
  }
  return labels;
}
