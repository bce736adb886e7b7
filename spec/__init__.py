"""The normative specification: rules, options and variants as data."""
