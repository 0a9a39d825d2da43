import { ChoiceGroup } from "../../components/choice-group.js";
import { ExpiryDateField } from "../../components/expiry-date-field.js";
import { EXPIRY_PRESETS, type ExpiryChoice, expiryDateRange } from "./key-text.js";

/** The "On a date" field's problem, if any: none chosen, or outside tomorrow to a year ahead. */
export function checkExpiryDate(date: string, now: number): string | null {
  const { first, last } = expiryDateRange(now);
  if (date === "") return "Choose the day the key stops working.";
  // yyyy-mm-dd strings sort as the dates they name.
  if (date < first || date > last) return `Choose a day from ${first} to ${last}.`;
  return null;
}

interface ExpiryChoiceProps {
  choice: ExpiryChoice;
  date: string;
  /** The date field's inline error, from the form's check on submit. */
  dateError?: string | undefined;
  onChoice: (choice: ExpiryChoice) => void;
  onDate: (date: string) => void;
}

/**
 * When a new key stops working: 7, 30 or 90 days (the default), a date, or never. Ninety days
 * keeps a forgotten key from living for ever without making a rotation due every month.
 */
export function ExpiryChoiceField(props: ExpiryChoiceProps) {
  const { choice, date, onChoice, onDate } = props;
  const range = expiryDateRange(Date.now());
  return (
    <div class="stack tight">
      <ChoiceGroup
        label="Expires"
        name="expiry"
        options={EXPIRY_PRESETS}
        value={choice}
        onChange={onChoice}
      />
      {choice === "date" && (
        <ExpiryDateField
          what="key"
          range={range}
          value={date}
          error={props.dateError}
          onInput={onDate}
        />
      )}
      <p class="hint">
        {choice === "never"
          ? "The key works until you revoke it."
          : "After it expires, requests with the key get 401. Roll it before then to replace it without downtime."}
      </p>
    </div>
  );
}
