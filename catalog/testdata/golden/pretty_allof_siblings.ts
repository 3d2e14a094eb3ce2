{
    common?: boolean,
  } & {
    id?: string,
  } & (string | null)
