import { useState } from "preact/hooks";
import { adminLimits } from "../../../../openapi/generated/admin-limits.js";
import { ApiError, api, call, type Me, messageOf } from "../../api.js";
import { useCheckedForm } from "../../components/checked-form.js";
import { Field } from "../../components/field.js";
import { problemOf } from "../../components/field-rules.js";
import { ErrorMessage } from "../../components/status.js";
import { useSubmit } from "../../hooks.js";

const limits = adminLimits.updateMe;
// The spec's pattern is anchored already (^…$): one line of plain text, not blank.
const NAME = new RegExp(limits.name.pattern);
const NAME_PROBLEM =
  "Use one line of plain text: no control characters or text-direction overrides.";

/** The name others see beside one's work (admin.yaml, updateMe). */
export function YourName({ me, onChanged }: { me: Me; onChanged: (me: Me) => void }) {
  const [name, setName] = useState(me.user.name);
  const [done, setDone] = useState(false);
  const form = useCheckedForm<"name">();
  const { busy, error, submit } = useSubmit((err) => {
    // A 400 here is about the one thing typed: said under the field.
    if (!(err instanceof ApiError && err.status === 400)) return messageOf(err);
    form.showOnField("name", err.message);
    return null;
  });
  const save = form.checked(
    () => ({
      name: problemOf(name, {
        required: "Enter your name.",
        maxLength: limits.name.maxLength,
        pattern: { regex: NAME, problem: NAME_PROBLEM },
      }),
    }),
    submit(async () => {
      setDone(false);
      const updated = await call(api.PATCH("/me", { body: { name: name.trim() } }));
      setName(updated.user.name);
      setDone(true);
      onChanged(updated);
    }),
  );
  return (
    <section class="card" aria-labelledby="name-title">
      <h2 id="name-title">Your name</h2>
      <form class="stack" noValidate ref={form.formRef} onSubmit={save}>
        <Field
          label="Name"
          hint="Your team sees it beside your work: members, history, activity."
          error={form.errors.name}
        >
          {(p) => (
            <input
              {...p}
              required
              maxLength={limits.name.maxLength}
              autocomplete="name"
              value={name}
              onInput={(e) => {
                setName(e.currentTarget.value);
                setDone(false);
                form.clear("name");
              }}
            />
          )}
        </Field>
        {error && <ErrorMessage message={error} />}
        <div role="status">{done && <p class="notice success">Name saved.</p>}</div>
        <div>
          <button type="submit" class="button primary" disabled={busy}>
            {busy ? "Saving…" : "Save name"}
          </button>
        </div>
      </form>
    </section>
  );
}
