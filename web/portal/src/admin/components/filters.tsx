import { A } from "../../strings/admin.ts";

// The controls of a list's filter bar (`.toolbar.filters`): a label that wraps its control, so no ids are needed.

/** A labelled select; `options` are [value, label] in order (the first is usually "all"). */
export function SelectFilter<T extends string>({
  label,
  value,
  options,
  onChange,
}: {
  label: string;
  value: T;
  options: readonly (readonly [T, string])[];
  onChange: (value: T) => void;
}) {
  return (
    <label class="inline-field">
      {label}
      <select value={value} onChange={(e) => onChange(e.currentTarget.value as T)}>
        {options.map(([key, text]) => (
          <option key={key} value={key}>
            {text}
          </option>
        ))}
      </select>
    </label>
  );
}

/** A labelled search box (labelled "Search" unless told otherwise). */
export function SearchFilter({
  label = A.common.search,
  value,
  placeholder,
  maxLength,
  onInput,
}: {
  label?: string;
  value: string;
  placeholder: string;
  maxLength?: number;
  onInput: (value: string) => void;
}) {
  return (
    <label class="inline-field">
      {label}
      <input
        type="search"
        value={value}
        maxLength={maxLength}
        onInput={(e) => onInput(e.currentTarget.value)}
        placeholder={placeholder}
      />
    </label>
  );
}
