// Fills in an RFC 6570 URI template (levels 1–3 and the explode/prefix modifiers read loosely) from the person's
// values: the resource templates' fill-in form uses it. Pure; it never fetches anything.

/** One `{…}` expression of a template: its operator and variable names. */
type Expression = { operator: string; names: string[] };

const EXPRESSION = /\{([+#./;?&]?)([^}]*)\}/g;

function expressions(template: string): Expression[] {
  return [...template.matchAll(EXPRESSION)].map((match) => ({
    operator: match[1] ?? "",
    names: (match[2] ?? "")
      .split(",")
      .map((name) => name.replace(/(\*|:\d+)$/, "").trim())
      .filter((name) => name !== ""),
  }));
}

/** The variable names of `template`, in order, each once. */
export function templateVariables(template: string): string[] {
  return [...new Set(expressions(template).flatMap((expression) => expression.names))];
}

/** `template` with its variables replaced by `values` (empty values left out, as RFC 6570 says for undefined). */
export function expandTemplate(template: string, values: Readonly<Record<string, string>>): string {
  return template.replace(EXPRESSION, (_whole, operator: string, list: string) => {
    const names = expressions(`{${operator}${list}}`)[0]?.names ?? [];
    const defined = names.filter((name) => (values[name] ?? "") !== "");
    if (defined.length === 0) return "";
    const encode = operator === "+" || operator === "#" ? encodeURI : encodeURIComponent;
    const named = operator === ";" || operator === "?" || operator === "&";
    const parts = defined.map((name) => {
      const value = encode(values[name] ?? "");
      return named ? `${name}=${value}` : value;
    });
    const [first, separator] = LAYOUT[operator] ?? ["", ","];
    return first + parts.join(separator);
  });
}

/** For each operator: what starts the expansion and what separates its values. */
const LAYOUT: Record<string, [string, string]> = {
  "": ["", ","],
  "+": ["", ","],
  "#": ["#", ","],
  ".": [".", "."],
  "/": ["/", "/"],
  ";": [";", ";"],
  "?": ["?", "&"],
  "&": ["&", "&"],
};
