import { ChoiceGroup } from "../../components/choice-group.js";
import { ExpiryDateField } from "../../components/expiry-date-field.js";
import { zonedTime } from "../../time.js";
import {
  TOKEN_EXPIRY_PRESETS,
  type TokenExpiry,
  tokenDayRange,
  tokenExpiresAt,
} from "./token-text.js";

interface TokenExpiryProps {
  choice: TokenExpiry;
  day: string;
  /** The date field's inline error, from the form's check on submit or the server's 400. */
  dayError?: string | undefined;
  onChoice: (choice: TokenExpiry) => void;
  onDay: (day: string) => void;
}

/**
 * When a new token stops working: 7, 30 (the default) or 90 days, a year, or a chosen day. A
 * token always expires (admin.yaml: 1 to 366 days ahead); under the choice, the exact moment a
 * preset means, so nobody has to count.
 */
export function TokenExpiryField({ choice, day, dayError, onChoice, onDay }: TokenExpiryProps) {
  const now = Date.now();
  const range = tokenDayRange(now);
  return (
    <div class="stack token-expiry">
      <ChoiceGroup
        label="Expires"
        name="token-expiry"
        options={TOKEN_EXPIRY_PRESETS}
        value={choice}
        onChange={onChoice}
      />
      {choice === "date" ? (
        <ExpiryDateField what="token" range={range} value={day} error={dayError} onInput={onDay} />
      ) : (
        <p class="hint">
          It stops working on {zonedTime(tokenExpiresAt(choice, day, now))}; after that its requests
          get 401.
        </p>
      )}
    </div>
  );
}
