// A CodeMirror 6 JSON editor as a controlled React component: the text, one problem marked at its position, and a
// save shortcut. Tab is left to the browser (it moves focus out), so the editor never traps the keyboard.
import { defaultKeymap, history, historyKeymap } from "@codemirror/commands";
import { json } from "@codemirror/lang-json";
import { HighlightStyle, bracketMatching, indentOnInput, syntaxHighlighting } from "@codemirror/language";
import { lintGutter, setDiagnostics, type Diagnostic } from "@codemirror/lint";
import { EditorState, type Text } from "@codemirror/state";
import { EditorView, highlightActiveLine, keymap, lineNumbers } from "@codemirror/view";
import { tags } from "@lezer/highlight";
import { useEffect, useEffectEvent, useRef } from "react";

/** A problem to mark in the text: 1-based line and column (in characters), and what is wrong. */
export type TextProblem = { line: number; column: number; message: string };

/** Props for {@link JsonCodeEditor}. */
type JsonCodeEditorProps = {
  /** The text to show; when it changes from outside, the editor's content is replaced. */
  value: string;
  /** Called with the whole text after every edit. */
  onChange: (text: string) => void;
  /** Called when the person presses Ctrl+S / Cmd+S in the editor. */
  onSave?: () => void;
  /** The problem to underline, or null when the text is fine. */
  problem: TextProblem | null;
  /** The accessible name of the editing area, e.g. "Entry of files as JSON". */
  label: string;
  /** Id of an element that describes the editor (its validation message), for screen readers. */
  describedBy?: string;
};

/** Colours from the app's tokens so the editor follows light and dark like the rest of the window. */
const theme = EditorView.theme({
  "&": { backgroundColor: "var(--pb-surface)", color: "var(--pb-text)", fontSize: "13px", height: "100%" },
  ".cm-content": { fontFamily: "var(--font-mono)", caretColor: "var(--pb-text)" },
  ".cm-scroller": { fontFamily: "var(--font-mono)", overflow: "auto" },
  ".cm-gutters": { backgroundColor: "var(--pb-canvas)", color: "var(--pb-muted)", borderRight: "1px solid var(--pb-border)" },
  ".cm-activeLine": { backgroundColor: "color-mix(in srgb, var(--pb-accent-soft) 45%, transparent)" },
  ".cm-activeLineGutter": { backgroundColor: "var(--pb-accent-soft)" },
  "&.cm-focused": { outline: "2px solid var(--pb-focus)", outlineOffset: "2px" },
  ".cm-tooltip": { backgroundColor: "var(--pb-surface)", border: "1px solid var(--pb-border)" },
});

/** JSON colours from the same tokens: keys in the accent colour, strings in green, literals in red. */
const highlight = HighlightStyle.define([
  { tag: tags.propertyName, color: "var(--pb-accent)" },
  { tag: tags.string, color: "var(--pb-ok)" },
  { tag: [tags.number, tags.bool, tags.null], color: "var(--pb-danger)" },
  { tag: [tags.punctuation, tags.brace, tags.squareBracket], color: "var(--pb-muted)" },
]);

export default function JsonCodeEditor({ value, onChange, onSave, problem, label, describedBy }: JsonCodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const changed = useEffectEvent((text: string) => onChange(text));
  const save = useEffectEvent(() => onSave?.());

  // The view is made once per mount; later `value` changes are dispatched into it below.
  useEffect(() => {
    if (host.current === null) return;
    const attributes: Record<string, string> = { "aria-label": label, "aria-multiline": "true" };
    if (describedBy !== undefined) attributes["aria-describedby"] = describedBy;
    const editor = new EditorView({
      parent: host.current,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          indentOnInput(),
          bracketMatching(),
          highlightActiveLine(),
          json(),
          syntaxHighlighting(highlight),
          lintGutter(),
          keymap.of([
            {
              key: "Mod-s",
              preventDefault: true,
              run: () => {
                save();
                return true;
              },
            },
            ...defaultKeymap,
            ...historyKeymap,
          ]),
          EditorView.lineWrapping,
          EditorView.contentAttributes.of(attributes),
          EditorView.updateListener.of((update) => {
            if (update.docChanged) changed(update.state.doc.toString());
          }),
          theme,
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // Made once: the label, description and first value are read at mount; later values are dispatched below.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  useEffect(() => {
    const editor = view.current;
    if (editor === null || editor.state.doc.toString() === value) return;
    editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    const editor = view.current;
    if (editor === null) return;
    const diagnostics: Diagnostic[] = problem === null ? [] : [diagnosticAt(editor.state.doc, problem)];
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [problem, value]);

  return <div ref={host} className="h-full min-h-0 overflow-hidden rounded-md border border-line" />;
}

/** The problem as a CodeMirror diagnostic: from its position to the end of that line (at least one character). */
function diagnosticAt(doc: Text, problem: TextProblem): Diagnostic {
  const line = doc.line(Math.min(Math.max(problem.line, 1), doc.lines));
  const from = Math.min(line.from + Math.max(problem.column - 1, 0), line.to);
  const to = from < line.to ? line.to : Math.min(from + 1, doc.length);
  return { from, to, severity: "error", message: problem.message };
}
