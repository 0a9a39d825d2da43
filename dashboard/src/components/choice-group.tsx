import { useId } from "preact/hooks";

interface ChoiceGroupProps<T extends string | number> {
  label: string;
  /** The radios' shared name (unique on the page). */
  name: string;
  options: readonly { value: T; label: string }[];
  value: T;
  onChange: (value: T) => void;
  /** Shows the label to screen readers only. */
  hideLabel?: boolean;
}

/** A labelled row of radio buttons styled as a segmented control. */
export function ChoiceGroup<T extends string | number>(props: ChoiceGroupProps<T>) {
  const labelId = useId();
  return (
    <div class="field">
      <p class={props.hideLabel ? "visually-hidden" : "label-like"} id={labelId}>
        {props.label}
      </p>
      <div role="radiogroup" class="segmented wrap" aria-labelledby={labelId}>
        {props.options.map((option) => (
          <label key={option.value}>
            <input
              type="radio"
              name={props.name}
              checked={props.value === option.value}
              onChange={() => props.onChange(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
    </div>
  );
}
