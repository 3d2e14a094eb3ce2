{ /* … 7 properties: query, filter, sort?, page?, perPage?, include?, meta? */ }
